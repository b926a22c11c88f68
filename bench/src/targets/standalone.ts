// The seed's "Node gateway" (§A): @apollo/server's startStandaloneServer in front of
// `new ApolloGateway({ supergraphSdl })` with the gateway's DEFAULT data source
// (RemoteGraphQLDataSource over make-fetch-happen), none of our plugins or adapters.
// With STANDALONE_FETCHER=undici (target `standalone-undici`) the one change is our undici
// data source, with the gateway's default pool settings: the pair isolates the fetcher's cost.
// Process entry: node bench/dist/targets/standalone.js (PORT, HOST, SUPERGRAPH_PATH, SUBGRAPH_<NAME>_URL,
// STANDALONE_FETCHER).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApolloGateway, type GraphQLDataSource, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { parseConfig, SubgraphDataSource } from '@fedgw/gateway';

const port = Number(process.env.PORT ?? 4100);
const host = process.env.HOST ?? '127.0.0.1';
const supergraphSdl = readFileSync(resolve(process.env.SUPERGRAPH_PATH ?? 'supergraph.graphql'), 'utf8');

const fetcher = process.env.STANDALONE_FETCHER ?? 'default';
if (fetcher !== 'default' && fetcher !== 'undici') {
  console.error(`STANDALONE_FETCHER must be "default" or "undici" (got "${fetcher}")`);
  process.exit(1);
}
// Our gateway's defaults (timeout, pool size, keep-alive), read the way it reads them.
const defaults = parseConfig({ SUPERGRAPH_PATH: process.env.SUPERGRAPH_PATH ?? 'supergraph.graphql' });

function dataSource(name: string, url: string): GraphQLDataSource {
  if (fetcher === 'default') return new RemoteGraphQLDataSource({ url });
  return new SubgraphDataSource({
    name,
    url,
    timeoutMs: defaults.subgraphDefaults.timeoutMs,
    connections: defaults.subgraphDefaults.poolConnections,
    keepAliveMs: defaults.subgraphDefaults.keepAliveMs,
  });
}

const gateway = new ApolloGateway({
  supergraphSdl,
  // Only the URL changes (like SUBGRAPH_<NAME>_URL on ours).
  buildService: ({ name, url }) => dataSource(name, process.env[`SUBGRAPH_${name.toUpperCase()}_URL`] ?? url ?? ''),
});

const server = new ApolloServer({ gateway });
const { url } = await startStandaloneServer(server, { listen: { port, host } });
console.log(`standalone gateway (${fetcher} fetcher) ready at ${url}`);
