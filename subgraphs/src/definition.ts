import { readFileSync } from 'node:fs';
import type { GraphQLResolverMap } from '@apollo/subgraph';
import { type DocumentNode, parse } from 'graphql';
import type { SubgraphName } from './catalog.js';
import type { SubgraphContext } from './context.js';

export type { SubgraphName };

/** Everything needed to serve or compose one subgraph. */
export interface SubgraphDefinition {
  readonly name: SubgraphName;
  readonly typeDefs: DocumentNode;
  readonly resolvers: GraphQLResolverMap<SubgraphContext>;
  /** Also the port written into supergraph.graphql (from catalog.ts). */
  readonly defaultPort: number;
  /** `Cache-Control` of its query answers (mutations answer `no-store`), read by the gateway's entity cache. */
  readonly cacheControl?: string;
}

/**
 * Reads a schema.graphql at startup. Callers pass `new URL('../../src/<name>/schema.graphql',
 * import.meta.url)`, which resolves to the source file from both src/ and dist/ (tsc
 * does not copy .graphql files).
 */
export function loadTypeDefs(url: URL): DocumentNode {
  return parse(readFileSync(url, 'utf8'));
}
