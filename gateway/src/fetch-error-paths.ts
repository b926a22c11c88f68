import { type DocumentNode, type GraphQLFormattedError, Kind, parse, type SelectionSetNode } from 'graphql';

/**
 * When a whole subgraph fetch fails (timeout, connection refused), builds one error per
 * field that fetch would have filled, each with its path, so clients see which parts of
 * the answer are missing. @apollo/gateway rewrites `['_entities', i, field]` into the
 * entity's real path in the response.
 */
export function failedFetchErrors(
  query: string | undefined,
  variables: Record<string, unknown> | undefined,
  message: string,
  extensions: Record<string, unknown>,
): GraphQLFormattedError[] {
  const document = parseQuietly(query);
  const operation = document?.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!document || !operation || operation.kind !== Kind.OPERATION_DEFINITION) return [{ message, extensions }];
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  }

  const entitiesField = operation.selectionSet.selections.find(
    (s) => s.kind === Kind.FIELD && s.name.value === '_entities',
  );
  const errors: GraphQLFormattedError[] = [];
  if (entitiesField?.kind === Kind.FIELD && entitiesField.selectionSet) {
    const count = Array.isArray(variables?.representations) ? variables.representations.length : 0;
    const fields = responseNames(entitiesField.selectionSet, fragments);
    for (let index = 0; index < count; index++) {
      for (const field of fields) errors.push({ message, path: ['_entities', index, field], extensions });
    }
  } else {
    for (const field of responseNames(operation.selectionSet, fragments))
      errors.push({ message, path: [field], extensions });
  }
  return errors.length > 0 ? errors : [{ message, extensions }];
}

/** Response keys selected directly or through fragments (inline or named), without `__typename`. */
function responseNames(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, SelectionSetNode>,
  visited = new Set<string>(),
): string[] {
  const names = new Set<string>();
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.alias?.value ?? selection.name.value;
      if (name !== '__typename') names.add(name);
      continue;
    }
    let nested: SelectionSetNode | undefined;
    if (selection.kind === Kind.INLINE_FRAGMENT) nested = selection.selectionSet;
    else if (!visited.has(selection.name.value)) {
      visited.add(selection.name.value);
      nested = fragments.get(selection.name.value);
    }
    for (const name of nested ? responseNames(nested, fragments, visited) : []) names.add(name);
  }
  return [...names];
}

/** Parsed only on failure: the query planner does not hand fetches their document by default. */
function parseQuietly(query: string | undefined): DocumentNode | undefined {
  try {
    return query ? parse(query, { noLocation: true }) : undefined;
  } catch {
    return undefined;
  }
}
