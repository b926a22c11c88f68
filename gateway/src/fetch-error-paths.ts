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
  const operation = parseQuietly(query)?.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return [{ message, extensions }];

  const entitiesField = operation.selectionSet.selections.find(
    (s) => s.kind === Kind.FIELD && s.name.value === '_entities',
  );
  const errors: GraphQLFormattedError[] = [];
  if (entitiesField?.kind === Kind.FIELD && entitiesField.selectionSet) {
    const count = Array.isArray(variables?.representations) ? variables.representations.length : 0;
    const fields = responseNames(entitiesField.selectionSet);
    for (let index = 0; index < count; index++) {
      for (const field of fields) errors.push({ message, path: ['_entities', index, field], extensions });
    }
  } else {
    for (const field of responseNames(operation.selectionSet)) errors.push({ message, path: [field], extensions });
  }
  return errors.length > 0 ? errors : [{ message, extensions }];
}

/** Response keys selected directly or through inline fragments, without `__typename`. */
function responseNames(selectionSet: SelectionSetNode): string[] {
  const names = new Set<string>();
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.alias?.value ?? selection.name.value;
      if (name !== '__typename') names.add(name);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      for (const name of responseNames(selection.selectionSet)) names.add(name);
    }
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
