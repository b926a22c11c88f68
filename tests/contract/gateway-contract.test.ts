import { COMPLEX_QUERY, expectedComplex, expectedUserWithProducts, GET_USER_WITH_PRODUCTS } from '@fedgw/subgraphs';
import {
  closedPortUrl,
  eventually,
  MOUNTS,
  postGraphQL,
  type RunningGateway,
  type RunningSubgraph,
  send,
  startGate,
  startGateway,
  startSubgraph,
  startSubgraphs,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * One end-to-end contract, over real HTTP, against every mount: the compiled gateway
 * process (NestJS or bare, Fastify or Express) in front of real subgraph processes.
 */
let subgraphs: Record<'users' | 'products' | 'reviews', RunningSubgraph>;
let slowProducts: RunningSubgraph;
const SLOW_MS = 1500;

beforeAll(async () => {
  [subgraphs, slowProducts] = await Promise.all([
    startSubgraphs(),
    startSubgraph('products', { SUBGRAPH_DELAY_MS: String(SLOW_MS) }),
  ]);
});

afterAll(async () => {
  await Promise.all([...Object.values(subgraphs ?? {}), slowProducts].map((subgraph) => subgraph?.stop()));
});

describe.each(MOUNTS)('gateway contract on %s', (mount) => {
  describe('with healthy subgraphs', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(mount, subgraphUrlEnv(subgraphs));
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('answers GetUserWithProducts for user-5 with complete data', async () => {
      const result = await postGraphQL(gateway.url, { query: GET_USER_WITH_PRODUCTS, variables: { userId: 'user-5' } });
      expect(result.status).toBe(200);
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data).toEqual(expectedUserWithProducts('user-5'));
    });

    it('answers ComplexQuery (users -> products -> reviews -> users) for user-5', async () => {
      const result = await postGraphQL(gateway.url, { query: COMPLEX_QUERY, variables: { userId: 'user-5' } });
      expect(result.status).toBe(200);
      expect(result.body.errors).toBeUndefined();
      const expected = expectedComplex('user-5');
      expect(expected.user?.orders.some((order) => order.product.reviews.length > 0)).toBe(true);
      expect(result.body.data).toEqual(expected);
    });

    it('answers both seed queries correctly for every user-N', async () => {
      const ids = Array.from({ length: 1000 }, (_, i) => `user-${i + 1}`);
      const wrong: string[] = [];
      // A few requests at a time: this checks answers, it measures nothing.
      for (let start = 0; start < ids.length; start += 20) {
        await Promise.all(
          ids.slice(start, start + 20).map(async (userId) => {
            const [simple, complex] = await Promise.all([
              postGraphQL(gateway.url, { query: GET_USER_WITH_PRODUCTS, variables: { userId } }),
              postGraphQL(gateway.url, { query: COMPLEX_QUERY, variables: { userId } }),
            ]);
            const ok =
              simple.status === 200 &&
              complex.status === 200 &&
              JSON.stringify(simple.body) === JSON.stringify({ data: expectedUserWithProducts(userId) }) &&
              JSON.stringify(complex.body) === JSON.stringify({ data: expectedComplex(userId) });
            if (!ok) wrong.push(userId);
          }),
        );
      }
      expect(wrong).toEqual([]);
    });

    it('resolves an unknown id to null without an error', async () => {
      const result = await postGraphQL(gateway.url, {
        query: GET_USER_WITH_PRODUCTS,
        variables: { userId: 'user-999999' },
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ data: { user: null } });
    });

    it('answers malformed JSON with 400 and a coded JSON error', async () => {
      const result = await send(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query": "{ __typename }"',
      });
      expect(result.status).toBe(400);
      expect(result.headers.get('content-type')).toMatch(/^application\/json/);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    });

    it('answers a body over the 2 MB default limit with 413 and a coded JSON error', async () => {
      const padding = 'x'.repeat(2 * 1024 * 1024);
      const result = await send(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }', variables: { padding } }),
      });
      expect(result.status).toBe(413);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
      expect(result.body.errors?.[0]?.message).toContain('2097152 bytes');
    });

    it('accepts a body just under the limit', async () => {
      const padding = 'x'.repeat(2 * 1024 * 1024 - 200);
      const result = await postGraphQL(gateway.url, { query: '{ __typename }', variables: { padding } });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({ __typename: 'Query' });
    });

    it('blocks requests a browser could send cross-site (CSRF prevention)', async () => {
      const get = await send(`${gateway.url}?query=${encodeURIComponent('{ __typename }')}`, { method: 'GET' });
      expect(get.status).toBe(400);
      expect(get.text).toMatch(/Cross-Site Request Forgery/);
      const textPost = await send(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(textPost.status).toBe(400);
      expect(textPost.text).toMatch(/Cross-Site Request Forgery/);
    });

    it('refuses batched operations (batching is off)', async () => {
      const result = await send(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
      });
      expect(result.status).toBe(400);
      expect(result.text).toMatch(/batching/i);
    });

    it('serves GET with a preflight header', async () => {
      const result = await send(`${gateway.url}?query=${encodeURIComponent('{ __typename }')}`, {
        method: 'GET',
        headers: { 'apollo-require-preflight': 'true' },
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ data: { __typename: 'Query' } });
    });

    it('keeps a safe client x-request-id and generates one otherwise', async () => {
      const given = await postGraphQL(gateway.url, { query: '{ __typename }' }, { 'x-request-id': 'client-id-42' });
      expect(given.headers.get('x-request-id')).toBe('client-id-42');
      const unsafe = await postGraphQL(
        gateway.url,
        { query: '{ __typename }' },
        { 'x-request-id': 'bad id\twith tab' },
      );
      expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const generated = await postGraphQL(gateway.url, { query: '{ __typename }' });
      expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers /health and /ready with 200 while serving', async () => {
      const health = await send(`${gateway.origin}/health`, { method: 'GET' });
      const ready = await send(`${gateway.origin}/ready`, { method: 'GET' });
      expect([health.status, health.body]).toEqual([200, { status: 'ok' }]);
      expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }]);
    });

    it('refuses introspection in production', async () => {
      const result = await postGraphQL(gateway.url, { query: '{ __schema { queryType { name } } }' });
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    });

    it('logs one line per request with operation, status and request id, and never a credential', async () => {
      const secret = 'super-secret-token-value';
      await postGraphQL(
        gateway.url,
        { query: GET_USER_WITH_PRODUCTS, variables: { userId: 'user-7' }, operationName: 'GetUserWithProducts' },
        { 'x-request-id': 'log-check-1', authorization: `Bearer ${secret}`, cookie: `session=${secret}` },
      );
      // The line is written after the response is sent: wait for it rather than race it.
      await expect.poll(() => gateway.logLines().filter((line) => line.requestId === 'log-check-1')).toHaveLength(1);
      const lines = gateway.logLines().filter((line) => line.requestId === 'log-check-1');
      expect(lines[0]).toMatchObject({
        msg: 'request completed',
        operationName: 'GetUserWithProducts',
        status: 200,
        method: 'POST',
        path: '/graphql',
      });
      expect(typeof lines[0]?.durationMs).toBe('number');
      expect(gateway.output()).not.toContain(secret);
    });
  });

  describe('with a subgraph down and a slow one', () => {
    let gateway: RunningGateway;
    let downUrl: string;
    beforeAll(async () => {
      downUrl = await closedPortUrl();
      gateway = await startGateway(mount, {
        ...subgraphUrlEnv({ users: subgraphs.users, products: slowProducts }),
        SUBGRAPH_REVIEWS_URL: downUrl,
        SUBGRAPH_PRODUCTS_TIMEOUT_MS: '300',
      });
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('returns partial data and a coded error at the path of a subgraph that is down', async () => {
      const result = await postGraphQL(gateway.url, { query: '{ user(id: "user-5") { id name reviews { rating } } }' });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({ user: { id: 'user-5', name: expect.any(String), reviews: null } });
      expect(result.body.errors).toEqual([
        {
          message: 'Subgraph "reviews" is unavailable (ECONNREFUSED).',
          path: ['user', 'reviews'],
          extensions: { code: 'SUBREQUEST_HTTP_ERROR', legacyCode: 'SUBGRAPH_UNAVAILABLE' },
        },
      ]);
      const port = new URL(downUrl).port;
      expect(result.text).not.toContain(port);
      expect(result.text).not.toContain('127.0.0.1');
    });

    it('aborts a subgraph fetch at its timeout with a coded error for that path', async () => {
      const started = Date.now();
      const result = await postGraphQL(gateway.url, { query: '{ topProducts(first: 2) { id name } }' });
      expect(Date.now() - started).toBeLessThan(SLOW_MS);
      expect(result.body.data).toBeNull();
      expect(result.body.errors).toEqual([
        {
          message: 'Subgraph "products" did not answer within 300 ms.',
          path: ['topProducts'],
          extensions: { code: 'GATEWAY_TIMEOUT', legacyCode: 'SUBGRAPH_TIMEOUT' },
        },
      ]);
    });
  });

  describe('on SIGTERM', () => {
    it('turns /ready to 503, finishes the in-flight request, and exits 0', async () => {
      // The request is held at a gate in front of the slow products subgraph until the drain has
      // begun, then takes SLOW_MS more: it is still in flight when the listener closes.
      const gate = await startGate(slowProducts.url);
      gate.close();
      const gateway = await startGateway(mount, {
        ...subgraphUrlEnv({ users: subgraphs.users, products: gate.server, reviews: subgraphs.reviews }),
        // /ready is read within this (1 s, so a loaded machine still reads it before the listener closes).
        SHUTDOWN_DELAY_MS: '1000',
      });
      const inFlight = postGraphQL(gateway.url, { query: '{ topProducts(first: 1) { id } }' });
      await eventually(() => expect(gate.holding()).toBe(1));
      gateway.child.kill('SIGTERM');
      await gateway.untilLog({ msg: 'shutting down', signal: 'SIGTERM' });
      gate.release();
      const [ready, health] = await Promise.all([
        send(`${gateway.origin}/ready`, { method: 'GET' }),
        send(`${gateway.origin}/health`, { method: 'GET' }),
      ]);
      expect(ready.status).toBe(503);
      expect(health.status).toBe(200);
      const result = await inFlight;
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ data: { topProducts: [{ id: expect.stringMatching(/^product-\d+$/) }] } });
      expect(await gateway.exited, gateway.output()).toBe(0);
      expect(gateway.logLines().some((line) => line.msg === 'shutdown complete')).toBe(true);
      await gate.server.close();
    });
  });
});
