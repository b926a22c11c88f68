import {
  addReview,
  closedPortUrl,
  eventually,
  fixedWait,
  type Gate,
  MOUNTS,
  openStream,
  postGraphQL,
  type RunningGateway,
  refusalOf,
  startGate,
  startGateway,
  startTestHttpServer,
  subgraphUrlEnv,
  type TestHttpServer,
  type TestStream,
  untilLive as untilLiveAt,
  WARM_UP,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphsForFile } from '../support/lifecycle.js';
import { scrape } from './metrics-scrape.js';

/**
 * Apollo Router's codes where it has one for the same condition, the old code beside it in
 * `extensions.legacyCode` (kept under MASK_ERRORS, which these gateways run with), on every
 * mount; and the Router's subscription choices: a cap on all subscriptions together
 * (SUBSCRIPTION_MAX_OPEN) and dropping a slow subscriber's oldest events (SUBSCRIPTION_SLOW_CLIENT).
 */
const subgraphs = subgraphsForFile();

const codeOf = (result: { body: { errors?: readonly { extensions?: Record<string, unknown> }[] } }) =>
  result.body.errors?.[0]?.extensions;

describe.each(MOUNTS)("Apollo Router's error codes on %s", (mount) => {
  let gateway: RunningGateway;
  let malformed: TestHttpServer;
  let silent: TestHttpServer;
  beforeAll(async () => {
    // products answers 200 with a page, reviews never answers, users is not there.
    malformed = await startTestHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    });
    silent = await startTestHttpServer(() => {});
    gateway = await startGateway(mount, {
      SUBGRAPH_PRODUCTS_URL: malformed.url,
      SUBGRAPH_REVIEWS_URL: silent.url,
      SUBGRAPH_USERS_URL: await closedPortUrl(),
      SUBGRAPH_TIMEOUT_MS: '300',
      MAX_DEPTH: '3',
      MAX_ALIASES: '2',
      MAX_ROOT_FIELDS: '3',
      MAX_CHARACTERS: '400',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await malformed?.close();
    await silent?.close();
  });

  it.each([
    ['depth', '{ user(id: "user-1") { orders { product { id } } } }', 'MAX_DEPTH_LIMIT'],
    ['aliases', '{ a: user(id: "1") { id } b: user(id: "2") { id } c: user(id: "3") { id } }', 'MAX_ALIASES_LIMIT'],
    [
      'root fields',
      '{ user(id: "1") { id } me { id } users { totalCount } topProducts { id } }',
      'MAX_ROOT_FIELDS_LIMIT',
    ],
  ])('over the %s limit: 400 (query %s) with %s, legacyCode OPERATION_LIMIT_EXCEEDED', async (_limit, query, code) => {
    const result = await postGraphQL(gateway.url, { query });
    expect(result.status).toBe(400);
    expect(codeOf(result)).toEqual({ code, legacyCode: 'OPERATION_LIMIT_EXCEEDED' });
  });

  it('a limit the Router does not have keeps OPERATION_LIMIT_EXCEEDED, without legacyCode', async () => {
    const result = await postGraphQL(gateway.url, { query: `{ __typename } # ${'x'.repeat(400)}` });
    expect(result.status).toBe(400);
    expect(codeOf(result)).toEqual({ code: 'OPERATION_LIMIT_EXCEEDED' });
  });

  it.each([
    [
      'answered 200 without a GraphQL response',
      '{ topProducts(first: 1) { name } }',
      'SUBREQUEST_MALFORMED_RESPONSE',
      'SUBGRAPH_BAD_RESPONSE',
    ],
    ['could not be reached', '{ user(id: "user-1") { id } }', 'SUBREQUEST_HTTP_ERROR', 'SUBGRAPH_UNAVAILABLE'],
    ['did not answer in time', '{ review(id: "review-1") { rating } }', 'GATEWAY_TIMEOUT', 'SUBGRAPH_TIMEOUT'],
  ])(
    'a subgraph that %s (query %s): the field null with %s (legacyCode %s)',
    async (_what, query, code, legacyCode) => {
      const result = await postGraphQL(gateway.url, { query });
      expect(result.status).toBe(200);
      expect(result.body.errors).toHaveLength(1);
      expect(codeOf(result)).toEqual({ code, legacyCode });
    },
  );
});

const REVIEW_ADDED =
  'subscription ($productId: ID) { reviewAdded(productId: $productId) { comment product { name } } }';
const commentsOf = (stream: TestStream) =>
  stream.events
    .map((event) => (event.data as { reviewAdded?: { comment: string } } | undefined)?.reviewAdded?.comment)
    .filter((comment) => comment !== WARM_UP);

describe.each(MOUNTS)("the Router's subscription limits on %s", (mount) => {
  let gateway: RunningGateway;
  let products: Gate;
  const streams: TestStream[] = [];
  const subscribe = (productId: string) => {
    const stream = openStream('ws', gateway.url, { query: REVIEW_ADDED, variables: { productId } });
    streams.push(stream);
    return stream;
  };
  const activeSubscriptions = async () => {
    const metrics = await scrape(`${gateway.origin}/metrics`);
    expect(metrics.status).toBe(200);
    return metrics.value('gateway_subscriptions_active');
  };
  /** Adds warm-up reviews until `stream` has an event: its subgraph subscription is live. */
  const untilLive = (stream: TestStream, productId: string) =>
    untilLiveAt(subgraphs().reviews.url, [stream], productId);

  beforeAll(async () => {
    // Every event's product comes from products, through a gate the test can hold shut.
    products = await startGate(subgraphs().products.url);
    gateway = await startGateway(mount, {
      ...subgraphUrlEnv({ ...subgraphs(), products: products.server }),
      SUBSCRIPTION_MAX_OPEN: '1',
      SUBSCRIPTION_SLOW_CLIENT: 'drop-oldest',
      SUBSCRIPTION_MAX_BUFFERED_EVENTS: '2',
      METRICS_ENABLED: 'true',
    });
  });
  afterAll(async () => {
    for (const stream of streams) stream.stop();
    products?.release();
    await gateway?.stop();
    await products?.server.close();
  });

  it('SUBSCRIPTION_MAX_OPEN: one subscription more, from any client, gets SUBSCRIPTION_MAX_LIMIT until one ends', async () => {
    const first = subscribe('product-1');
    await untilLive(first, 'product-1');
    const refused = await refusalOf('ws', subscribe('product-2'));
    expect(refused.map((error) => error.extensions)).toEqual([
      { code: 'SUBSCRIPTION_MAX_LIMIT', legacyCode: 'SUBSCRIPTION_LIMIT_EXCEEDED' },
    ]);
    expect(refused[0]?.message).toMatch(/SUBSCRIPTION_MAX_OPEN/);
    first.stop();
    // The slot is free once the gateway has seen the close, a moment after the client's: until then
    // a new subscription is still refused (on a loaded machine, the next one can arrive first).
    await eventually(async () => expect(await activeSubscriptions()).toBe(0));
    await untilLive(subscribe('product-3'), 'product-3');
  });

  it('SUBSCRIPTION_SLOW_CLIENT=drop-oldest: a subscriber behind by more than its buffer loses the oldest events, not its subscription', async () => {
    const stream = streams.at(-1) as TestStream;
    const reviewsUrl = subgraphs().reviews.url;
    const before = stream.events.length;
    products.close();
    await addReview(reviewsUrl, { productId: 'product-3', rating: 2, comment: 'r1' });
    // One event is being resolved (its product fetch held: r1, or a late warm-up); the rest wait in a buffer of two.
    await eventually(() => expect(products.holding()).toBe(1));
    for (const comment of ['r2', 'r3', 'r4', 'r5', 'r6']) {
      await addReview(reviewsUrl, { productId: 'product-3', rating: 2, comment });
    }
    // fixed wait: for the subgraph's events to reach the subscriber's buffer (loopback WebSocket); nothing reports an event queued behind the held one, and SUBSCRIPTION_MAX_OPEN=1 leaves no room for a witness subscription
    await fixedWait(500);
    products.release();
    await eventually(() => expect(commentsOf(stream).at(-1)).toBe('r6'));
    const after = stream.events.slice(before);
    const comments = commentsOf({ ...stream, events: after });
    // The held event, then the newest two: r2, r3 and r4 (and r1, when a late warm-up was the held one) were dropped.
    expect(comments.slice(-2)).toEqual(['r5', 'r6']);
    expect(comments.filter((comment) => comment === 'r2' || comment === 'r3' || comment === 'r4')).toEqual([]);
    expect(after.every((event) => event.errors === undefined)).toBe(true);
    // Still live.
    await addReview(reviewsUrl, { productId: 'product-3', rating: 2, comment: 'r7' });
    await eventually(() => expect(commentsOf(stream).at(-1)).toBe('r7'));
  });
});
