import { eventually } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientErrorCode } from '../../src/error-registry.js';
import { SharedUpstreams } from '../../src/subscriptions/shared-upstreams.js';
import type { SubgraphEvent, SubgraphSocketOptions } from '../../src/subscriptions/subgraph-socket.js';
import { SubscriptionEnd } from '../../src/subscriptions/subscription-end.js';
import { type SubgraphSocketServer, startSubgraphSocketServer } from './subgraph-server.js';

const QUERY = 'subscription OnReview($productId: ID) { reviewAdded(productId: $productId) { id rating } }';
const review = (n: number) => ({ id: `r${n}`, rating: n, comment: `comment ${n}` });
const event = (n: number): SubgraphEvent => ({ data: { reviewAdded: { id: `r${n}`, rating: n } } });

const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function startServer(): Promise<SubgraphSocketServer> {
  const server = await startSubgraphSocketServer();
  closers.push(() => server.close());
  return server;
}

function options(url: string, more: Partial<SubgraphSocketOptions> = {}): SubgraphSocketOptions {
  return {
    subgraph: 'reviews',
    url,
    headers: { 'x-request-id': `request-${Math.random()}`, 'x-user-id': 'user-1' },
    query: QUERY,
    variables: { productId: 'product-4' },
    operationName: 'OnReview',
    maxBufferedEvents: 16,
    maxEventBytes: 64 * 1024,
    connectTimeoutMs: 5_000,
    keepAliveMs: 60_000,
    ...more,
  };
}

function subscribe(upstreams: SharedUpstreams, given: SubgraphSocketOptions): AsyncIterableIterator<SubgraphEvent> {
  const events = upstreams.subscribe(given);
  closers.unshift(() => events.return?.());
  return events;
}

async function failureOf(events: AsyncIterator<SubgraphEvent>): Promise<SubscriptionEnd> {
  for (;;) {
    try {
      if ((await events.next()).done) throw new Error('completed instead of failing');
    } catch (error) {
      expect(error).toBeInstanceOf(SubscriptionEnd);
      return error as SubscriptionEnd;
    }
  }
}

describe('SharedUpstreams', () => {
  it('serves identical subscriptions (request ids aside) from one subgraph socket, every event to each, in order', async () => {
    const server = await startServer();
    const upstreams = new SharedUpstreams();
    const first = subscribe(upstreams, options(server.url));
    const second = subscribe(upstreams, options(server.url));
    const served = await server.subscription(0);
    for (const n of [1, 2, 3]) served.push(review(n));
    for (const events of [first, second]) {
      expect([await events.next(), await events.next(), await events.next()].map((step) => step.value)).toEqual([
        event(1),
        event(2),
        event(3),
      ]);
    }
    expect(server.subscriptions).toHaveLength(1);
    expect(server.upgrades).toHaveLength(1);
    expect(upstreams.size).toBe(1);
  });

  it('never shares between different headers, variables or operations', async () => {
    const server = await startServer();
    const upstreams = new SharedUpstreams();
    subscribe(upstreams, options(server.url)).next();
    subscribe(upstreams, options(server.url, { headers: { 'x-user-id': 'user-2' } })).next();
    subscribe(upstreams, options(server.url, { variables: { productId: 'product-5' } })).next();
    subscribe(upstreams, options(server.url, { query: `${QUERY} ` })).next();
    await server.subscription(3);
    expect(server.upgrades.map((headers) => headers['x-user-id'])).toEqual(['user-1', 'user-2', 'user-1', 'user-1']);
    expect(upstreams.size).toBe(4);
  });

  it('keeps the socket while one sharer stays, and closes it when the last one leaves', async () => {
    const server = await startServer();
    const upstreams = new SharedUpstreams();
    const leaving = subscribe(upstreams, options(server.url));
    const staying = subscribe(upstreams, options(server.url));
    const served = await server.subscription(0);
    await leaving.return?.();
    served.push(review(1));
    expect((await staying.next()).value).toEqual(event(1));
    expect(served.isReleased()).toBe(false);
    await staying.return?.();
    await served.released;
    await eventually(() => expect(server.openSockets()).toBe(0));
    expect(upstreams.size).toBe(0);
  });

  it('ends only the slow sharer when it falls behind; the others keep every event', async () => {
    const server = await startServer();
    const upstreams = new SharedUpstreams();
    const slow = subscribe(upstreams, options(server.url, { maxBufferedEvents: 2 }));
    const reader = subscribe(upstreams, options(server.url, { maxBufferedEvents: 2 }));
    const served = await server.subscription(0);
    const received: unknown[] = [];
    for (const n of [1, 2, 3, 4]) {
      served.push(review(n));
      received.push((await reader.next()).value);
    }
    expect(received).toEqual([event(1), event(2), event(3), event(4)]);
    // The slow one gets what was queued for it, then its own end.
    expect([(await slow.next()).value, (await slow.next()).value]).toEqual([event(1), event(2)]);
    expect((await failureOf(slow)).errors[0]?.extensions?.code).toBe(ClientErrorCode.SUBSCRIPTION_SLOW_CONSUMER);
    served.push(review(5));
    expect((await reader.next()).value).toEqual(event(5));
    expect(served.isReleased()).toBe(false);
  });

  it('ends every sharer when the subgraph closes, and the next subscriber gets a new socket', async () => {
    const server = await startServer();
    const upstreams = new SharedUpstreams();
    const sharers = [subscribe(upstreams, options(server.url)), subscribe(upstreams, options(server.url))];
    await server.subscription(0);
    server.dropSockets(1011);
    for (const events of sharers) {
      expect((await failureOf(events)).errors[0]?.extensions?.code).toBe(ClientErrorCode.WEBSOCKET_CLOSE_ERROR);
    }
    expect(upstreams.size).toBe(0);
    const next = subscribe(upstreams, options(server.url));
    (await server.subscription(1)).push(review(7));
    expect((await next.next()).value).toEqual(event(7));
    expect(server.upgrades).toHaveLength(2);
  });

  it('completes every sharer when the subgraph completes', async () => {
    const server = await startServer();
    const upstreams = new SharedUpstreams();
    const sharers = [subscribe(upstreams, options(server.url)), subscribe(upstreams, options(server.url))];
    (await server.subscription(0)).complete();
    for (const events of sharers) expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(upstreams.size).toBe(0);
  });
});
