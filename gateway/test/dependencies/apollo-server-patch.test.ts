import { ApolloServer, HeaderMap } from '@apollo/server';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';

// patches/@apollo__server@5.5.0.patch (ADR 041): the `response.http` Apollo Server hands a
// gateway's executor is a class instance whose `status` accessor is on its prototype, not a
// per-request object literal with get/set closures (V8 kept those closures, and the whole
// request context they hold, through every scavenge: each request was promoted). Behaviour is
// unchanged: the executor's status reaches the HTTP answer.
// The same patch (ADR 044) requires @graphql-tools/schema only when a schema is built from typeDefs.

const schema: GraphQLSchema = buildSchema('type Query { hello: String }');

async function answerWith(executor: (requestContext: GatewayRequestContext) => Promise<{ data: unknown }>) {
  const server = new ApolloServer({
    gateway: {
      load: async () => ({ schema, executor: executor as never }),
      // Apollo Server takes the schema from this callback, as @apollo/gateway calls it.
      onSchemaLoadOrUpdate: (
        update: (schemaContext: { apiSchema: GraphQLSchema; coreSupergraphSdl: string }) => void,
      ) => {
        update({ apiSchema: schema, coreSupergraphSdl: 'type Query { hello: String }' });
        return () => {};
      },
      stop: async () => {},
    },
  });
  await server.start();
  try {
    return await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        headers: new HeaderMap([['content-type', 'application/json']]),
        search: '',
        body: { query: '{ hello }' },
      },
      context: async () => ({}),
    });
  } finally {
    await server.stop();
  }
}

interface GatewayRequestContext {
  readonly response: {
    readonly http: { status?: number; readonly headers: { set(name: string, value: string): void } };
  };
}

describe('the patched Apollo Server gateway request context', () => {
  it('gives response.http a prototype accessor for status, not an own one', async () => {
    let ownStatus: PropertyDescriptor | undefined | 'unseen' = 'unseen';
    let prototypeHasStatus = false;
    await answerWith(async ({ response }) => {
      ownStatus = Object.getOwnPropertyDescriptor(response.http, 'status');
      prototypeHasStatus =
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(response.http), 'status') !== undefined;
      return { data: { hello: 'x' } };
    });
    expect(ownStatus).toBeUndefined();
    expect(prototypeHasStatus).toBe(true);
  });

  it('still carries the status and headers an executor sets to the HTTP answer', async () => {
    const answer = await answerWith(async ({ response }) => {
      response.http.status = 203;
      response.http.headers.set('x-from-executor', 'yes');
      return { data: { hello: 'x' } };
    });
    expect(answer.status).toBe(203);
    expect(answer.headers.get('x-from-executor')).toBe('yes');
  });
});

describe('the patched Apollo Server given typeDefs', () => {
  it('still builds its schema from them (@graphql-tools/schema, required when needed)', async () => {
    const server = new ApolloServer({
      typeDefs: 'type Query { hello: String }',
      resolvers: { Query: { hello: () => 'from typeDefs' } },
    });
    await server.start();
    try {
      const answer = await server.executeOperation({ query: '{ hello }' });
      expect(answer.body).toEqual({ kind: 'single', singleResult: { data: { hello: 'from typeDefs' } } });
    } finally {
      await server.stop();
    }
  });
});
