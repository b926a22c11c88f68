// @apollo/gateway refuses a supergraph that links a feature `for: SECURITY` it cannot enforce
// (@authenticated, @requiresScopes, @policy): serving it would silently drop the rules. Here a
// plugin enforces them (`GatewayPlugin.enforces`), so the gateway is given the supergraph with
// `for: SECURITY` removed from those links only; any other security feature is still refused.
import { type ConstDirectiveNode, type DirectiveNode, Kind, parse, print, visit } from 'graphql';
import type { GatewayPlugin } from '../contract/index.js';
import { stringArgument } from './linked-directives.js';

/** The spec URLs (`https://specs.apollo.dev/authenticated/v0.1`) the plugins enforce. */
export function enforcedFeatures(plugins: readonly GatewayPlugin[]): ReadonlySet<string> {
  return new Set(plugins.flatMap((plugin) => plugin.enforces ?? []));
}

/** `sdl` as @apollo/gateway is given it: unchanged unless it links an enforced feature for SECURITY. */
export function forApolloGateway(sdl: string, enforced: ReadonlySet<string>): string {
  if (enforced.size === 0 || !sdl.includes('SECURITY')) return sdl;
  let changed = false;
  const document = visit(parse(sdl), {
    Directive(node) {
      if (node.name.value !== 'link') return undefined;
      const url = stringArgument(node as ConstDirectiveNode, 'url');
      if (url === undefined || !enforced.has(url)) return undefined;
      const args = (node.arguments ?? []).filter(
        (arg) => !(arg.name.value === 'for' && arg.value.kind === Kind.ENUM && arg.value.value === 'SECURITY'),
      );
      if (args.length === node.arguments?.length) return undefined;
      changed = true;
      return { ...node, arguments: args } as ConstDirectiveNode;
    },
  });
  return changed ? print(document) : sdl;
}

/**
 * `sdl` without its security features (links `for: SECURITY`, their directives, definitions
 * and scalars): for a gateway that does not enforce them (a benchmark peer, Apollo Router
 * without a GraphOS licence, which refuses to start on them). Only ever for fields nobody
 * queries: every rule they carried is gone.
 */
export function withoutSecurityFeatures(sdl: string): string {
  const document = parse(sdl);
  const prefixes: string[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.SCHEMA_DEFINITION && definition.kind !== Kind.SCHEMA_EXTENSION) continue;
    for (const link of definition.directives ?? []) {
      if (link.name.value !== 'link' || !isSecurityLink(link)) continue;
      const url = stringArgument(link, 'url');
      const prefix = stringArgument(link, 'as') ?? (url && /\/([A-Za-z]+)\/v\d+\.\d+$/.exec(url)?.[1]);
      if (prefix) prefixes.push(prefix);
    }
  }
  if (prefixes.length === 0) return sdl;
  const ours = (name: string) => prefixes.some((prefix) => name === prefix || name.startsWith(`${prefix}__`));
  return print(
    visit(document, {
      Directive: (node) =>
        (node.name.value === 'link' && isSecurityLink(node)) || ours(node.name.value) ? null : undefined,
      DirectiveDefinition: (node) => (ours(node.name.value) ? null : undefined),
      ScalarTypeDefinition: (node) => (ours(node.name.value) ? null : undefined),
    }),
  );
}

function isSecurityLink(link: ConstDirectiveNode | DirectiveNode): boolean {
  return (link.arguments ?? []).some(
    (arg) => arg.name.value === 'for' && arg.value.kind === Kind.ENUM && arg.value.value === 'SECURITY',
  );
}
