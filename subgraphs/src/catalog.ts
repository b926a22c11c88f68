/**
 * The one list of subgraphs: name and port. Each is served by `subgraphs/dist/<name>/main.js`
 * and defined by `src/<name>/subgraph.ts` (schema, resolvers), registered in definitions.ts.
 * `pnpm subgraphs`, the composer (the URLs in supergraph.graphql), the deployment files it
 * writes (deployment-files.ts), the test support and the bench read this list; nothing else
 * names the subgraphs. Imports nothing, so reading it
 * loads no subgraph.
 */
export const SUBGRAPHS = [
  { name: 'users', port: 4001 },
  { name: 'products', port: 4002 },
  { name: 'reviews', port: 4003 },
] as const;

export type SubgraphName = (typeof SUBGRAPHS)[number]['name'];

export const SUBGRAPH_NAMES: readonly SubgraphName[] = SUBGRAPHS.map((subgraph) => subgraph.name);

/** The port `name` listens on by default, and has in supergraph.graphql. */
export function defaultPortOf(name: SubgraphName): number {
  return (SUBGRAPHS.find((subgraph) => subgraph.name === name) as (typeof SUBGRAPHS)[number]).port;
}
