import { ApolloServer } from '@apollo/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayContext } from '../../../src/contract/index.js';
import { operationResolution } from '../../../src/plugins/operation-resolution/index.js';
import { gatewayContext } from '../helpers/scope.js';

/**
 * The plugin inside a real Apollo Server over schemas the supergraph cannot provide (one
 * with a Subscription root type, one without a Mutation root type). Over HTTP, with the
 * gateway: operation-resolution-http.test.ts.
 */
describe('operationResolution', () => {
  const servers: ApolloServer<GatewayContext>[] = [];
  const serve = async (typeDefs: string) => {
    const plugin = operationResolution();
    if (!plugin.apollo) throw new Error('operationResolution has no apollo hooks');
    const server = new ApolloServer<GatewayContext>({ typeDefs, plugins: [plugin.apollo] });
    await server.start();
    servers.push(server);
    return async (query: string) => {
      const response = await server.executeOperation({ query }, { contextValue: gatewayContext() });
      if (response.body.kind !== 'single') throw new Error('expected a single result');
      const { data, errors } = response.body.singleResult;
      return { status: response.http.status, data, errors };
    };
  };
  let withSubscriptions: Awaited<ReturnType<typeof serve>>;
  let queriesOnly: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    withSubscriptions = await serve('type Query { a: Int } type Subscription { ticks: Int }');
    queriesOnly = await serve('type Query { a: Int }');
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('refuses a subscription over plain HTTP even when the schema has a Subscription type', async () => {
    expect(await withSubscriptions('subscription { ticks }')).toEqual({
      status: 400,
      errors: [
        expect.objectContaining({
          message:
            'Subscriptions are served over a WebSocket (graphql-transport-ws), Server-Sent Events (Accept: text/event-stream) or multipart HTTP (Accept: multipart/mixed;subscriptionSpec=1.0), not plain HTTP.',
          extensions: { code: 'SUBSCRIPTION_NOT_SUPPORTED' },
        }),
      ],
    });
  });

  it('refuses a mutation when the schema has no Mutation type', async () => {
    expect(await queriesOnly('mutation { a }')).toEqual({
      status: 400,
      errors: [
        expect.objectContaining({
          message: 'The schema has no mutation root type.',
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
        }),
      ],
    });
  });

  it('lets a resolvable query through', async () => {
    expect(await queriesOnly('query Q { a }')).toEqual({ status: undefined, data: { a: null }, errors: undefined });
  });
});
