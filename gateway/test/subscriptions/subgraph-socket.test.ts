import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closedPortUrl, eventually } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import {
  type SubgraphEvent,
  type SubgraphSocketOptions,
  subscribeToSubgraph,
} from '../../src/subscriptions/subgraph-socket.js';
import { SubscriptionEnd } from '../../src/subscriptions/subscription-end.js';
import { type SubgraphSocketServer, startSubgraphSocketServer } from './subgraph-server.js';

const QUERY = 'subscription OnReview($productId: ID) { reviewAdded(productId: $productId) { id rating } }';

const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function startServer(): Promise<SubgraphSocketServer> {
  const server = await startSubgraphSocketServer();
  closers.push(() => server.close());
  return server;
}

function subscribe(url: string, options: Partial<SubgraphSocketOptions> = {}): AsyncIterableIterator<SubgraphEvent> {
  const events = subscribeToSubgraph({
    subgraph: 'reviews',
    url,
    headers: {},
    query: QUERY,
    variables: {},
    operationName: 'OnReview',
    maxBufferedEvents: 16,
    maxEventBytes: 64 * 1024,
    connectTimeoutMs: 5_000,
    keepAliveMs: 60_000,
    ...options,
  });
  closers.unshift(() => events.return?.());
  return events;
}

const review = (n: number) => ({ id: `r${n}`, rating: n, comment: `comment ${n}` });

/** The SubscriptionEnd the source's next read fails with (events before it are skipped). */
async function endOf(events: AsyncIterator<SubgraphEvent>): Promise<SubscriptionEnd> {
  for (;;) {
    let step: IteratorResult<SubgraphEvent>;
    try {
      step = await events.next();
    } catch (error) {
      expect(error).toBeInstanceOf(SubscriptionEnd);
      return error as SubscriptionEnd;
    }
    if (step.done) throw new Error('the source completed instead of failing');
  }
}

describe('subscribeToSubgraph against a graphql-ws server', () => {
  it("sends the operation and variables; gives the subgraph's events in order, then done when it completes", async () => {
    const server = await startServer();
    const events = subscribe(server.url, { variables: { productId: 'p7' } });
    const served = await server.subscription(0);
    expect(served.args).toEqual({ productId: 'p7' });

    for (const n of [1, 2, 3]) served.push(review(n));
    served.complete();

    const seen: SubgraphEvent[] = [];
    for await (const event of events) seen.push(event);
    expect(seen).toEqual([1, 2, 3].map((n) => ({ data: { reviewAdded: { id: `r${n}`, rating: n } } })));
  });

  it('connects to the same host and path over ws:, with the headers on the upgrade and in the connection_init payload', async () => {
    const server = await startServer();
    const headers = { 'x-request-id': 'req-42', 'x-user-id': 'u1', authorization: 'Bearer t' };
    subscribe(server.url, { headers });
    await server.subscription(0);

    expect(server.upgrades).toHaveLength(1);
    expect(server.upgrades[0]).toMatchObject(headers);
    expect(server.upgrades[0]?.['sec-websocket-protocol']).toBe('graphql-transport-ws');
    expect(server.connectionParams).toEqual([{ headers }]);
  });

  it('one socket per subscription: two subscriptions open two sockets with their own headers', async () => {
    const server = await startServer();
    subscribe(server.url, { headers: { 'x-user-id': 'alice' } });
    subscribe(server.url, { headers: { 'x-user-id': 'bob' } });
    await server.subscription(1);
    expect(server.openSockets()).toBe(2);
    expect(server.connectionParams).toHaveLength(2);
    expect(new Set(server.upgrades.map((h) => h['x-user-id']))).toEqual(new Set(['alice', 'bob']));
  });

  it('return() (the client left) stops the subscription and closes the socket', async () => {
    const server = await startServer();
    const events = subscribe(server.url);
    const served = await server.subscription(0);
    served.push(review(1));
    expect((await events.next()).value).toEqual({ data: { reviewAdded: { id: 'r1', rating: 1 } } });

    await events.return?.();
    await served.released;
    await eventually(() => expect(server.openSockets()).toBe(0));
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('a subgraph that closes the socket ends it with WEBSOCKET_CLOSE_ERROR and the close code', async () => {
    const server = await startServer();
    const events = subscribe(server.url);
    const served = await server.subscription(0);
    served.push(review(1));
    expect((await events.next()).value).toEqual({ data: { reviewAdded: { id: 'r1', rating: 1 } } });

    server.dropSockets(1011);
    const end = await endOf(events);
    expect(end.errors).toEqual([
      {
        message: 'The subgraph "reviews" ended the subscription (WebSocket close 1011). Subscribe again.',
        extensions: { code: 'WEBSOCKET_CLOSE_ERROR', legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED', serviceName: 'reviews' },
      },
    ]);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('a connection that drops (no close frame) ends it with WEBSOCKET_CLOSE_ERROR (1006)', async () => {
    const server = await startServer();
    const events = subscribe(server.url);
    await server.subscription(0);
    server.dropSockets();
    const end = await endOf(events);
    expect(end.errors[0]?.extensions).toEqual({
      code: 'WEBSOCKET_CLOSE_ERROR',
      legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED',
      serviceName: 'reviews',
    });
    expect(end.errors[0]?.message).toContain('(WebSocket close 1006)');
  });

  it('a subgraph that cannot be reached ends it with WEBSOCKET_CLOSE_ERROR', async () => {
    const events = subscribe(await closedPortUrl());
    const end = await endOf(events);
    expect(end.errors[0]?.extensions).toEqual({
      code: 'WEBSOCKET_CLOSE_ERROR',
      legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED',
      serviceName: 'reviews',
    });
  });

  it('a subgraph that never acknowledges the connection ends it with WEBSOCKET_CLOSE_ERROR after connectTimeoutMs', async () => {
    // A WebSocket server that accepts the socket and the subprotocol but ignores connection_init.
    const http = createServer();
    const wss = new WebSocketServer({ server: http, handleProtocols: () => 'graphql-transport-ws' });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });
    const { port } = http.address() as AddressInfo;

    const events = subscribe(`http://127.0.0.1:${port}/graphql`, { connectTimeoutMs: 50 });
    const end = await endOf(events);
    expect(end.errors[0]?.extensions).toEqual({
      code: 'WEBSOCKET_CLOSE_ERROR',
      legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED',
      serviceName: 'reviews',
    });
    // graphql-ws closes with 4504 Connection acknowledgement timeout.
    expect(end.errors[0]?.message).toContain('(WebSocket close 4504)');
  });

  it("a subgraph that answers the subscription with errors ends it with the subgraph's errors", async () => {
    const server = await startServer();
    const events = subscribe(server.url, { query: 'subscription { reviewAdded { nope } }', operationName: undefined });
    const end = await endOf(events);
    expect(end.errors).toHaveLength(1);
    expect(end.errors[0]?.message).toContain('Cannot query field "nope"');
    expect(end.errors[0]?.extensions?.serviceName).toBe('reviews');
    expect(end.errors[0]?.extensions?.code).not.toBe('WEBSOCKET_CLOSE_ERROR');
  });

  it("with errors: mask (SUBGRAPH_ERRORS), the subgraph's errors end it redacted (graphql-ws's validation error has no code)", async () => {
    const server = await startServer();
    const events = subscribe(server.url, {
      query: 'subscription { reviewAdded { nope } }',
      operationName: undefined,
      errors: 'mask',
    });
    const end = await endOf(events);
    expect(end.errors).toEqual([
      {
        message: 'Subgraph errors redacted',
        extensions: { serviceName: 'reviews' },
      },
    ]);
  });

  it('an event larger than maxEventBytes closes the subgraph socket (1009) and ends it with WEBSOCKET_CLOSE_ERROR', async () => {
    const server = await startServer();
    const events = subscribe(server.url, {
      query: 'subscription { reviewAdded { id comment } }',
      operationName: undefined,
      maxEventBytes: 1_000,
    });
    const served = await server.subscription(0);
    served.push({ id: 'small', rating: 1, comment: 'x'.repeat(100) });
    expect((await events.next()).value).toEqual({
      data: { reviewAdded: { id: 'small', comment: 'x'.repeat(100) } },
    });

    served.push({ id: 'big', rating: 1, comment: 'x'.repeat(2_000) });
    const end = await endOf(events);
    expect(end.errors[0]?.extensions).toEqual({
      code: 'WEBSOCKET_CLOSE_ERROR',
      legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED',
      serviceName: 'reviews',
    });
    // The gateway closed the socket with 1009 (Message Too Big).
    await served.released;
    await eventually(() => expect(server.closeCodes).toEqual([1009]));
    expect(server.openSockets()).toBe(0);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('one event more than maxBufferedEvents: the buffered events, then SUBSCRIPTION_SLOW_CONSUMER; the socket is closed', async () => {
    const server = await startServer();
    const events = subscribe(server.url, { maxBufferedEvents: 2 });
    const served = await server.subscription(0);
    // Nobody reads: the third event overflows the buffer, which closes the subgraph socket.
    for (const n of [1, 2, 3]) served.push(review(n));
    await served.released;
    await eventually(() => expect(server.openSockets()).toBe(0));

    expect((await events.next()).value).toEqual({ data: { reviewAdded: { id: 'r1', rating: 1 } } });
    expect((await events.next()).value).toEqual({ data: { reviewAdded: { id: 'r2', rating: 2 } } });
    const end = await endOf(events);
    expect(end.errors).toEqual(SubscriptionEnd.slowConsumer(2).errors);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('return() while the subgraph socket is still connecting, and the connection then fails: nothing is left unhandled', async () => {
    // Holds the upgrade request until the test answers it (with a 404: no WebSocket here).
    const http = createServer();
    const upgrades: Socket[] = [];
    let upgraded: () => void = () => {};
    const upgradeArrived = new Promise<void>((resolve) => {
      upgraded = resolve;
    });
    http.on('upgrade', (_request, socket: Socket) => {
      upgrades.push(socket);
      upgraded();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      for (const socket of upgrades) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    closers.push(() => process.off('unhandledRejection', onUnhandled));

    const { port } = http.address() as AddressInfo;
    const events = subscribe(`http://127.0.0.1:${port}/graphql`);
    await upgradeArrived;
    // The client leaves while the subgraph connection is being made.
    expect(await events.return?.()).toEqual({ value: undefined, done: true });
    await new Promise((resolve) => setImmediate(resolve));

    const socket = upgrades[0] as Socket;
    const closed = once(socket, 'close');
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    // The client saw the 404 and dropped the socket; its error and any rejection came before.
    await closed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });
});
