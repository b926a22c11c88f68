// The seed's "Node gateway" (§A): @apollo/server's startStandaloneServer in front of
// `new ApolloGateway({ supergraphSdl })` with the gateway's DEFAULT data source
// (RemoteGraphQLDataSource over make-fetch-happen), none of our plugins or adapters.
// Process entry: node bench/dist/standalone.js (PORT, HOST, SUPERGRAPH_PATH, SUBGRAPH_<NAME>_URL).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';

const port = Number(process.env.PORT ?? 4100);
const host = process.env.HOST ?? '127.0.0.1';
const supergraphSdl = readFileSync(resolve(process.env.SUPERGRAPH_PATH ?? 'supergraph.graphql'), 'utf8');

const gateway = new ApolloGateway({
  supergraphSdl,
  // Only the URL changes (like SUBGRAPH_<NAME>_URL on ours); the class is the default one.
  buildService: ({ name, url }) =>
    new RemoteGraphQLDataSource({ url: process.env[`SUBGRAPH_${name.toUpperCase()}_URL`] ?? url }),
});

const server = new ApolloServer({ gateway });
const { url } = await startStandaloneServer(server, { listen: { port, host } });
console.log(`standalone gateway ready at ${url}`);
