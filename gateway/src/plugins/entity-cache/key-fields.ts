import { type DocumentNode, Kind, parse, type SelectionSetNode } from 'graphql';
import { argument } from '../../plugin-sdk/index.js';

/**
 * Each entity type's `@key` field names per subgraph, from the supergraph's
 * `@join__type(graph:, key:)` (graph enum values named by `@join__graph(name:)`): the fields an
 * entity is identified by, so that invalidating `{ type, key }` finds it whatever other fields
 * (`@requires`) its representation carries.
 */
export class KeyFields {
  readonly #keys = new Map<string, readonly (readonly string[])[]>();

  static fromSdl(sdl: string): KeyFields {
    const fields = new KeyFields();
    let document: DocumentNode;
    try {
      document = parse(sdl, { noLocation: true });
    } catch {
      return fields; // the gateway refuses an SDL it cannot parse before a plugin sees it
    }
    const graphs = new Map<string, string>();
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.ENUM_TYPE_DEFINITION || definition.name.value !== 'join__Graph') continue;
      for (const value of definition.values ?? []) {
        const named = value.directives?.find((directive) => directive.name.value === 'join__graph');
        const name = named && argument(named, 'name');
        if (name?.kind === Kind.STRING) graphs.set(value.name.value, name.value);
      }
    }
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.INTERFACE_TYPE_DEFINITION)
        continue;
      for (const directive of definition.directives ?? []) {
        if (directive.name.value !== 'join__type') continue;
        const graph = argument(directive, 'graph');
        const key = argument(directive, 'key');
        if (graph?.kind !== Kind.ENUM || key?.kind !== Kind.STRING) continue;
        const subgraph = graphs.get(graph.value);
        const names = topLevelFields(key.value);
        if (!subgraph || !names) continue;
        const id = `${subgraph}\u0000${definition.name.value}`;
        fields.#keys.set(id, [...(fields.#keys.get(id) ?? []), names]);
      }
    }
    return fields;
  }

  /**
   * The representation's key: its values of the first `@key` whose fields it all has, as one
   * object; without a known key, the representation itself (less `__typename`).
   */
  keyOf(subgraph: string, type: string, representation: Readonly<Record<string, unknown>>): Record<string, unknown> {
    for (const names of this.#keys.get(`${subgraph}\u0000${type}`) ?? []) {
      if (!names.every((name) => Object.hasOwn(representation, name))) continue;
      return Object.fromEntries(names.map((name) => [name, representation[name]]));
    }
    const { __typename: _, ...rest } = representation;
    return rest;
  }
}

function topLevelFields(fieldSet: string): string[] | undefined {
  let selections: SelectionSetNode;
  try {
    const document = parse(`{${fieldSet}}`, { noLocation: true });
    const operation = document.definitions[0];
    if (operation?.kind !== Kind.OPERATION_DEFINITION) return undefined;
    selections = operation.selectionSet;
  } catch {
    return undefined;
  }
  const names = selections.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD ? [selection.name.value] : [],
  );
  return names.length > 0 ? names : undefined;
}
