// The supergraph the peers serve: ours without its authorization directives. Apollo Router
// refuses to start on them without a GraphOS licence, and the stock ApolloGateway of the
// standalone baselines refuses any security feature it cannot enforce. No benchmark query
// selects a field they guard, so every target answers the same operations the same way; only
// our gateway pays for checking them (its rows include that cost). Its progressive overrides
// (`@join__field(overrideLabel:)`) go too, each field left with the subgraph it moves from:
// the Router refuses the label without an Enterprise licence, and no benchmark query selects
// such a field (Product.reviewsUrl).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withoutSecurityFeatures } from '@fedgw/gateway';

let written: string | undefined;

/** A file with `supergraphPath`'s SDL minus its security features (written once per process). */
export function peerSupergraph(supergraphPath: string): string {
  if (written) return written;
  const path = join(mkdtempSync(join(tmpdir(), 'bench-peer-supergraph-')), 'supergraph.graphql');
  writeFileSync(path, withoutOverrideLabels(withoutSecurityFeatures(readFileSync(supergraphPath, 'utf8'))));
  written = path;
  return path;
}

/**
 * `sdl` as if every progressive override were at 0%: the overriding `@join__field(override:,
 * overrideLabel:)` removed, and the label dropped from the field's original subgraph.
 */
export function withoutOverrideLabels(sdl: string): string {
  return (
    sdl
      // Applications only (not `directive @join__field(…)`); a label's quotes may hold parentheses.
      .replace(/(?<!directive) @join__field\(((?:[^()"]|"[^"]*")*)\)/g, (directive: string, args: string) => {
        if (!/\boverrideLabel:/.test(args)) return directive;
        if (/\boverride:/.test(args)) return '';
        return directive.replace(/,\s*overrideLabel:\s*"[^"]*"/, '');
      })
  );
}
