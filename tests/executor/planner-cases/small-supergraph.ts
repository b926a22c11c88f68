// Small federated graphs for the planner cases: each subgraph an in-process Apollo Server on
// loopback (a schema and resolvers of the case's own), composed into a supergraph file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { type DocumentNode, type GraphQLSchema, parse } from 'graphql';

// The subgraphs workspace holds composition and @apollo/subgraph (the gateway needs neither).
const fromSubgraphs = createRequire(new URL('../../../subgraphs/package.json', import.meta.url));
const { composeServices } = fromSubgraphs('@apollo/composition') as {
  composeServices(services: { name: string; url: string; typeDefs: DocumentNode }[]): {
    supergraphSdl?: string;
    errors?: { message: string }[];
  };
};
const { buildSubgraphSchema } = fromSubgraphs('@apollo/subgraph') as {
  buildSubgraphSchema(modules: { typeDefs: DocumentNode; resolvers: object }[]): GraphQLSchema;
};

export interface SmallSubgraph {
  readonly name: string;
  readonly typeDefs: string;
  readonly resolvers: object;
}

export interface SmallSupergraph {
  /** The composed supergraph's file, for SUPERGRAPH_PATH. */
  readonly path: string;
  stop(): Promise<void>;
}

export async function startSmallSupergraph(subgraphs: readonly SmallSubgraph[]): Promise<SmallSupergraph> {
  const servers: ApolloServer[] = [];
  const services = [];
  for (const subgraph of subgraphs) {
    const typeDefs = parse(subgraph.typeDefs);
    const server = new ApolloServer({
      schema: buildSubgraphSchema([{ typeDefs, resolvers: subgraph.resolvers }]),
      plugins: [ApolloServerPluginInlineTraceDisabled()],
    });
    const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
    servers.push(server);
    services.push({ name: subgraph.name, url, typeDefs });
  }
  const composed = composeServices(services);
  if (!composed.supergraphSdl) {
    await Promise.all(servers.map((server) => server.stop()));
    throw new Error(`composition failed: ${composed.errors?.map((error) => error.message).join('; ')}`);
  }
  const path = join(mkdtempSync(join(tmpdir(), 'planner-case-')), 'supergraph.graphql');
  writeFileSync(path, composed.supergraphSdl);
  return { path, stop: async () => void (await Promise.all(servers.map((server) => server.stop()))) };
}
