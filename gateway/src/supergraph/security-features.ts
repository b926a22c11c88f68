// @apollo/gateway refuses a supergraph that links a feature `for: SECURITY` it cannot enforce
// (@authenticated, @requiresScopes, @policy): serving it would silently drop the rules. Here a
// plugin enforces them (`GatewayPlugin.enforces`), so the gateway is given the supergraph with
// `for: SECURITY` removed from those links only; any other security feature is still refused.
import { type ConstDirectiveNode, Kind, parse, print, visit } from 'graphql';
import type { GatewayPlugin } from '../contract/index.js';

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
      const url = node.arguments?.find((arg) => arg.name.value === 'url')?.value;
      if (url?.kind !== Kind.STRING || !enforced.has(url.value)) return undefined;
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
