import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import type { DocumentNode } from 'graphql';
import type { SubgraphContext } from '../src/context.js';

export interface OperationResult {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }>;
}

/** Runs operations against a subgraph schema in-process (no HTTP), with request headers. */
export async function createOperationRunner(typeDefs: DocumentNode, resolvers: GraphQLResolverMap<SubgraphContext>) {
  const server = new ApolloServer<SubgraphContext>({
    schema: buildSubgraphSchema([{ typeDefs, resolvers }]),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
    stopOnTerminationSignals: false,
  });
  await server.start();
  return {
    async run(
      query: string,
      variables: Record<string, unknown> = {},
      headers: Record<string, string> = {},
    ): Promise<OperationResult> {
      const response = await server.executeOperation(
        { query, variables },
        { contextValue: { headers: new Map(Object.entries(headers)) } },
      );
      if (response.body.kind !== 'single') throw new Error('expected a single result');
      return response.body.singleResult as OperationResult;
    },
    stop: () => server.stop(),
  };
}

export const codesOf = (result: OperationResult) => result.errors?.map((e) => e.extensions?.code);

/**
 * Retries `check` until it stops throwing, rethrowing its last error after `timeoutMs`: a bound
 * on a wait for something asynchronous, not a timing. (test-support has one too, but it
 * depends on this package.)
 */
export async function eventually(check: () => unknown, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10)); // poll: `check`, until it passes
    }
  }
}
