import type { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';

// patches/@apollo__server@5.5.0.patch (ADR 041, ADR 051; the pull request text is
// docs/upstream/apollo-server.md). Two per-request changes, each checked by what it does, so
// that an upgrade which drops or loses the patch fails here, not silently in the bench:
// - the `response.http` Apollo Server hands a gateway's executor is a class instance whose
//   `status` accessor is on its prototype, not a per-request object literal with get/set
//   closures (V8 kept those closures, and the whole request context they hold, through every
//   scavenge: each request was promoted);
// - the query hash (the document cache's key) is Node's one-shot `crypto.hash`, not a `Hash`
//   object from @apollo/utils.createhash; the same hex digest.

const PATCHED_VERSION = '5.5.0';
const schema: GraphQLSchema = buildSchema('type Query { hello: String }');

interface GatewayRequestContext {
  readonly queryHash: string;
  readonly response: {
    readonly http: { status?: number; readonly headers: { set(name: string, value: string): void } };
  };
}

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

describe('the patched Apollo Server', () => {
  it(`is ${PATCHED_VERSION}, the version the patch was made and measured for`, () => {
    // On an upgrade: re-make the patch if the release still has both lines (ADR 051 lists the
    // steps), or drop it if the release carries the fix; then change this version.
    const entry = createRequire(import.meta.url).resolve('@apollo/server');
    const packageJson = `${entry.slice(0, entry.lastIndexOf('/@apollo/server/'))}/@apollo/server/package.json`;
    expect((JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version).toBe(PATCHED_VERSION);
  });

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

  it('hashes the query without a Hash object, to the same SHA-256 hex digest', async () => {
    // @apollo/utils.createhash calls `require('crypto').createHash` on each call: count those.
    const crypto = createRequire(import.meta.url)('node:crypto') as { createHash: typeof createHash };
    const original = crypto.createHash;
    let hashObjects = 0;
    crypto.createHash = ((...args: Parameters<typeof createHash>) => {
      hashObjects += 1;
      return original(...args);
    }) as typeof createHash;
    let queryHash = '';
    try {
      await answerWith(async (requestContext) => {
        queryHash = requestContext.queryHash;
        return { data: { hello: 'x' } };
      });
    } finally {
      crypto.createHash = original;
    }
    expect(hashObjects).toBe(0);
    expect(queryHash).toBe(original('sha256').update('{ hello }').digest('hex'));
  });
});
