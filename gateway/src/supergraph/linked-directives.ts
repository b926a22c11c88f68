// Reading directives a supergraph links from a spec (`@link(url:, import:, as:)`): composition
// keeps them in the supergraph SDL, under the names that link gives them, while the API schema
// clients see has them stripped. Cost declarations, authorization directives and the security
// features the gateway hands @apollo/gateway are read with these.
import { type ConstDirectiveNode, type ConstValueNode, type DocumentNode, Kind } from 'graphql';

/**
 * The name `directive` of the spec whose URL matches `spec` has in this supergraph: its local
 * name when imported (`as` followed), else `<prefix>__<directive>` (the spec's `as` or
 * `defaultPrefix`); `undefined` when the supergraph does not link the spec.
 */
export function linkedName(
  document: DocumentNode,
  spec: RegExp,
  defaultPrefix: string,
  directive: string,
): string | undefined {
  let name: string | undefined;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.SCHEMA_DEFINITION && definition.kind !== Kind.SCHEMA_EXTENSION) continue;
    for (const link of definition.directives ?? []) {
      const url = argument(link, 'url');
      if (link.name.value !== 'link' || url?.kind !== Kind.STRING || !spec.test(url.value)) continue;
      const prefix = stringArgument(link, 'as') ?? defaultPrefix;
      // A spec's own-named directive is `@<prefix>` (`@authenticated`), the others `@<prefix>__<name>`.
      name = directive === defaultPrefix ? prefix : `${prefix}__${directive}`;
      for (const [original, local] of imports(argument(link, 'import'))) if (original === directive) name = local;
    }
  }
  return name;
}

export function argument(directive: ConstDirectiveNode, name: string): ConstValueNode | undefined {
  return directive.arguments?.find((arg) => arg.name.value === name)?.value;
}

export function stringArgument(directive: ConstDirectiveNode, name: string): string | undefined {
  const value = argument(directive, name);
  return value?.kind === Kind.STRING ? value.value : undefined;
}

export function intArgument(directive: ConstDirectiveNode, name: string): number | undefined {
  const value = argument(directive, name);
  return value?.kind === Kind.INT ? Number(value.value) : undefined;
}

export function stringList(value: ConstValueNode | undefined): string[] | undefined {
  if (value?.kind !== Kind.LIST) return undefined;
  return value.values.flatMap((item) => (item.kind === Kind.STRING ? [item.value] : []));
}

/** `import: ["@listSize", { name: "@cost", as: "@weight" }]` → [original, local] names without `@`. */
function imports(value: ConstValueNode | undefined): [string, string][] {
  if (value?.kind !== Kind.LIST) return [];
  const strip = (name: string) => name.replace(/^@/, '');
  return value.values.flatMap((item): [string, string][] => {
    if (item.kind === Kind.STRING) return [[strip(item.value), strip(item.value)]];
    if (item.kind !== Kind.OBJECT) return [];
    const field = (name: string) => item.fields.find((f) => f.name.value === name)?.value;
    const name = field('name');
    const as = field('as');
    if (name?.kind !== Kind.STRING) return [];
    return [[strip(name.value), strip(as?.kind === Kind.STRING ? as.value : name.value)]];
  });
}
