import {
  eventually,
  type Gate,
  type GraphQLResult,
  MOUNTS,
  openStream,
  postGraphQL,
  type RunningGateway,
  refusalOf,
  STREAM_PROTOCOLS,
  send,
  startGate,
  startGateway,
  subgraphUrlEnv,
  type TestStream,
  untilLive,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphsForFile } from '../support/lifecycle.js';
import { parseMetrics } from './metrics-scrape.js';

/**
 * Load shedding by client priority (SHED_*) over real HTTP on every mount. Overload is driven by
 * a real signal, never by CPU: products sits behind a gate that holds its requests, so each
 * `topProducts` query held there is an operation in flight, and SHED_MAX_IN_FLIGHT=2 is crossed
 * by holding two. Classes come from the API key's consumer (verified): checkout (0) and batch (1);
 * with SHED_STEP_PERCENT=100, batch is shed from 2 operations in flight, checkout from 4. The open
 * subscription never counts (only until its stream starts): holding 4 would shed the 4th otherwise.
 */
const CHECKOUT = { 'x-api-key': 'checkout-key-0123456789abcdef' };
const BATCH = { 'x-api-key': 'batch-key-0123456789abcdef012' };
const HELD = '{ topProducts(first: 1) { id } }';
const PROBE = '{ user(id: "user-5") { id name } }';
const REVIEWS_ONLY = 'subscription OnReview($productId: ID) { reviewAdded(productId: $productId) { rating comment } }';

const subgraphs = subgraphsForFile();

const codesOf = (result: GraphQLResult) => result.body.errors?.map((error) => error.extensions?.code);

describe.each(MOUNTS)('load shedding on %s', (mount) => {
  let gate: Gate;
  let gateway: RunningGateway;
  const streams: TestStream[] = [];

  beforeAll(async () => {
    gate = await startGate(subgraphs().products.url);
    gateway = await startGateway(mount, {
      ...subgraphUrlEnv({ ...subgraphs(), products: { url: gate.server.url } }),
      GATEWAY_PLUGINS: 'api-key,rate-limit',
      GATEWAY_API_KEYS: `checkout-svc:${CHECKOUT['x-api-key']},batch-svc:${BATCH['x-api-key']}`,
      RATE_LIMIT_KEY: 'api-key',
      RATE_LIMIT_MAX: '1000',
      SHED_CLASSES: 'checkout=0,batch=1',
      SHED_CLASS_RULES: 'consumer:checkout-svc=checkout,consumer:batch-svc=batch',
      SHED_MAX_IN_FLIGHT: '2',
      SHED_STEP_PERCENT: '100',
      SHED_RETRY_AFTER_S: '3',
      METRICS_ENABLED: 'true',
      SUBGRAPH_RETRIES: '0',
    });
  });
  afterAll(async () => {
    for (const stream of streams) stream.stop();
    gate?.release();
    await gateway?.stop();
    await gate?.server.close();
  });

  /** Sends `count` checkout queries that products holds, and waits until the gate holds them all. */
  async function hold(count: number): Promise<Promise<GraphQLResult>[]> {
    gate.close();
    const held = Array.from({ length: count }, () => postGraphQL(gateway.url, { query: HELD }, CHECKOUT));
    await eventually(() => expect(gate.holding()).toBe(count)); // poll: the gate's count of held requests
    return held;
  }

  it('lets every class through below the bound', async () => {
    const held = await hold(1);
    const [batch, checkout] = await Promise.all([
      postGraphQL(gateway.url, { query: PROBE }, BATCH),
      postGraphQL(gateway.url, { query: PROBE }, CHECKOUT),
    ]);
    expect([batch.status, checkout.status]).toEqual([200, 200]);
    expect(batch.body.data).toEqual({ user: { id: 'user-5', name: expect.any(String) } });
    gate.release();
    expect((await Promise.all(held)).map((result) => result.status)).toEqual([200]);
  });

  it('past the bound, sheds batch (503, Retry-After, coded, uncharged) and serves checkout; open subscriptions live on', async () => {
    const productId = `product-${MOUNTS.indexOf(mount) + 20}`;
    const stream = openStream(
      'sse',
      gateway.url,
      { query: REVIEWS_ONLY, variables: { productId } },
      { headers: { ...BATCH } },
    );
    streams.push(stream);
    await untilLive(subgraphs().reviews.url, [stream], productId);
    const before = await postGraphQL(gateway.url, { query: PROBE }, BATCH);
    const remainingBefore = Number(before.headers.get('ratelimit-remaining'));

    const held = await hold(2);
    const shed = await Promise.all([1, 2, 3].map(() => postGraphQL(gateway.url, { query: PROBE }, BATCH)));
    for (const result of shed) {
      expect(result.status).toBe(503);
      expect(result.headers.get('retry-after')).toBe('3');
      expect(codesOf(result)).toEqual(['REQUEST_CONCURRENCY_LIMITED']);
      expect(result.body.data).toBeUndefined();
      // Refused before the rate limit ran: it says nothing of the budget.
      expect(result.headers.get('ratelimit-remaining')).toBeNull();
    }
    const checkout = await postGraphQL(gateway.url, { query: PROBE }, CHECKOUT);
    expect(checkout.status).toBe(200);
    expect(checkout.body.data).toEqual({ user: { id: 'user-5', name: expect.any(String) } });
    expect((await send(`${gateway.origin}/health`, { method: 'GET' })).status).toBe(200);
    const metrics = await send(`${gateway.origin}/metrics`, { method: 'GET' });
    expect(metrics.status).toBe(200);
    expect(parseMetrics(metrics.text).value('gateway_shed_total', { class: 'batch' })).toBe(3);
    expect(parseMetrics(metrics.text).value('gateway_shed_total', { class: 'checkout' })).toBe(0);

    // The batch client's subscription, opened before, still delivers during the overload.
    const seen = stream.events.length;
    const response = await fetch(subgraphs().reviews.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'user-3' },
      body: JSON.stringify({
        query: `mutation { addReview(productId: "${productId}", rating: 4, comment: "during overload") { id } }`,
      }),
    });
    expect(response.status).toBe(200);
    const events = await stream.take(seen + 1);
    expect(events.at(-1)).toEqual({ data: { reviewAdded: { rating: 4, comment: 'during overload' } } });

    gate.release();
    expect((await Promise.all(held)).map((result) => result.status)).toEqual([200, 200]);
    const after = await postGraphQL(gateway.url, { query: PROBE }, BATCH);
    expect(after.status).toBe(200);
    // Only this request was charged since `before`: the three shed ones cost nothing.
    expect(Number(after.headers.get('ratelimit-remaining'))).toBe(remainingBefore - 1);
  });

  // Refused as a request is: over graphql-ws as the subscription's `error` (the connection itself is
  // accepted: only a bad credential closes it, 4403); over graphql-sse in the operation's answer, or,
  // single connection mode, at the reservation, 503 like plain HTTP.
  it.each(STREAM_PROTOCOLS)(
    'past the bound, a new batch subscription over %s is refused with the same code',
    async (protocol) => {
      const held = await hold(2);
      try {
        const payload = { query: REVIEWS_ONLY, variables: { productId: 'product-1' } };
        const stream = openStream(protocol, gateway.url, payload, { headers: { ...BATCH } });
        streams.push(stream);
        const end = protocol === 'sse-single' ? await stream.ended : undefined;
        if (end) {
          expect(end.status).toBe(503);
          // The reservation itself, as graphql-sse's client sends it: Retry-After as on plain HTTP.
          const put = await fetch(gateway.url, { method: 'PUT', headers: BATCH });
          expect([put.status, put.headers.get('retry-after')]).toEqual([503, '3']);
        }
        const errors = end ? (end.errors ?? []) : await refusalOf(protocol, stream);
        expect(errors.map((error) => error.extensions?.code)).toEqual(['REQUEST_CONCURRENCY_LIMITED']);
      } finally {
        gate.release();
      }
      expect((await Promise.all(held)).map((result) => result.status)).toEqual([200, 200]);
    },
  );

  it('sheds checkout too once the overload grows past its own threshold', async () => {
    const held = await hold(4);
    const checkout = await postGraphQL(gateway.url, { query: PROBE }, CHECKOUT);
    expect(checkout.status).toBe(503);
    expect(codesOf(checkout)).toEqual(['REQUEST_CONCURRENCY_LIMITED']);
    gate.release();
    expect((await Promise.all(held)).map((result) => result.status)).toEqual([200, 200, 200, 200]);
    expect((await postGraphQL(gateway.url, { query: PROBE }, CHECKOUT)).status).toBe(200);
  });
});
