// What the supergraph requires to see each field and type: @authenticated, @requiresScopes and
// @policy (Federation 2.5+; composition keeps them in the supergraph SDL, linked `for: SECURITY`).
import { isTypeDefinitionNode, isTypeExtensionNode, Kind, parse } from 'graphql';
import { argument, linkedName } from '../../plugin-sdk/index.js';

/**
 * One requirement. `scopes` and `policies` are OR of ANDs, as the directives write them:
 * `[["a", "b"], ["c"]]` is met by (a and b) or c.
 */
export type Requirement =
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'scopes'; readonly anyOf: readonly (readonly string[])[] }
  | { readonly kind: 'policy'; readonly anyOf: readonly (readonly string[])[] };

/** `Type.field` → what seeing the field requires; `Type` → what seeing a value of that type requires. */
export interface AuthorizationRules {
  readonly fields: ReadonlyMap<string, readonly Requirement[]>;
  readonly types: ReadonlyMap<string, readonly Requirement[]>;
  /** Every policy name the rules use (what a policy decider is asked about). */
  readonly policies: ReadonlySet<string>;
}

export const NO_RULES: AuthorizationRules = { fields: new Map(), types: new Map(), policies: new Set() };

/** The spec versions this plugin enforces (the ones Federation composes today). */
export const ENFORCED_SPECS = [
  'https://specs.apollo.dev/authenticated/v0.1',
  'https://specs.apollo.dev/requiresScopes/v0.1',
  'https://specs.apollo.dev/policy/v0.1',
] as const;

const SPECS = {
  authenticated: /^https:\/\/specs\.apollo\.dev\/authenticated\/v0\.\d+$/,
  requiresScopes: /^https:\/\/specs\.apollo\.dev\/requiresScopes\/v0\.\d+$/,
  policy: /^https:\/\/specs\.apollo\.dev\/policy\/v0\.\d+$/,
};

/** Reads the authorization directives of a supergraph SDL; NO_RULES when it has none. */
export function readAuthorizationRules(supergraphSdl: string): AuthorizationRules {
  const document = parse(supergraphSdl, { noLocation: true });
  const names = new Map<string, 'authenticated' | 'scopes' | 'policy'>();
  const authenticated = linkedName(document, SPECS.authenticated, 'authenticated', 'authenticated');
  const requiresScopes = linkedName(document, SPECS.requiresScopes, 'requiresScopes', 'requiresScopes');
  const policy = linkedName(document, SPECS.policy, 'policy', 'policy');
  if (authenticated) names.set(authenticated, 'authenticated');
  if (requiresScopes) names.set(requiresScopes, 'scopes');
  if (policy) names.set(policy, 'policy');
  if (names.size === 0) return NO_RULES;

  const fields = new Map<string, Requirement[]>();
  const types = new Map<string, Requirement[]>();
  const policies = new Set<string>();
  const requirementsOf = (directives: readonly import('graphql').ConstDirectiveNode[] | undefined) => {
    const found: Requirement[] = [];
    for (const directive of directives ?? []) {
      const kind = names.get(directive.name.value);
      if (kind === 'authenticated') found.push({ kind });
      else if (kind === 'scopes') found.push({ kind, anyOf: nestedStrings(argument(directive, 'scopes')) });
      else if (kind === 'policy') {
        const anyOf = nestedStrings(argument(directive, 'policies'));
        for (const names of anyOf) for (const name of names) policies.add(name);
        found.push({ kind, anyOf });
      }
    }
    return found;
  };
  for (const definition of document.definitions) {
    if (!isTypeDefinitionNode(definition) && !isTypeExtensionNode(definition)) continue;
    const typeName = definition.name.value;
    const onType = requirementsOf(definition.directives);
    if (onType.length > 0) types.set(typeName, [...(types.get(typeName) ?? []), ...onType]);
    if (!('fields' in definition) || !definition.fields) continue;
    for (const field of definition.fields) {
      const onField = requirementsOf(field.directives);
      if (onField.length > 0) fields.set(`${typeName}.${field.name.value}`, onField);
    }
  }
  return { fields, types, policies };
}

/** `[["a", "b"], ["c"]]` (a list of lists of strings). */
function nestedStrings(value: import('graphql').ConstValueNode | undefined): string[][] {
  if (value?.kind !== Kind.LIST) return [];
  return value.values.map((inner) =>
    inner.kind === Kind.LIST ? inner.values.flatMap((item) => (item.kind === Kind.STRING ? [item.value] : [])) : [],
  );
}
