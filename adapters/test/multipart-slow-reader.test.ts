import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { SubscriptionEndpoint } from '@fedgw/gateway/contract';
import type { FormattedExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { multipartTransport } from '../src/subscriptions/multipart.js';

const HEARTBEAT_MS = 100;
const EVENT = { data: { big: 'x'.repeat(256 * 1024) } };

// An endless subscription whose events are always ready: only the transport's pace bounds how many it takes.
let pulled = 0;
let returned = false;
let slots = 0;
const events: AsyncIterableIterator<FormattedExecutionResult> = {
  next: async () => {
    pulled += 1;
    return { done: false, value: EVENT };
  },
  return: async () => {
    returned = true;
    return { done: true, value: undefined };
  },
  [Symbol.asyncIterator]: () => events,
};
const endpoint: SubscriptionEndpoint = {
  // The transport choice is the mounts' (not exercised here).
  transportFor: () => 'json',
  limits: {
    maxConnections: 10,
    maxPerConnection: 10,
    heartbeatMs: 10_000,
    multipartHeartbeatMs: HEARTBEAT_MS,
    connectionInitTimeoutMs: 1000,
    idleTimeoutMs: 10_000,
    maxBufferedEvents: 10,
  },
  openConnection: () => {
    slots += 1;
    return {
      granted: true,
      release: () => {
        slots -= 1;
      },
    };
  },
  authenticate: async () => undefined,
  operate: async () => ({ kind: 'stream', events }),
  onDrain: () => {},
};

let server: Server;
let port: number;
beforeAll(async () => {
  const transport = multipartTransport({ subscriptions: endpoint });
  if (!transport) throw new Error('an endpoint with subscriptions has a multipart transport');
  server = createServer((req, res) => {
    const params = transport.claim(req, undefined);
    if (!params) return void res.writeHead(404).end();
    void transport.serve(req, res, params);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => {
  server?.close();
});

describe('a multipart client that stops reading', () => {
  it('is not written more than the socket takes, and is cut off, its subscription and connection freed', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    // Reads nothing: the kernel's buffers fill, then the response's.
    socket.pause();
    socket.write(
      `GET /graphql?query=${encodeURIComponent('subscription { big }')} HTTP/1.1\r\nhost: localhost\r\n` +
        'accept: multipart/mixed;subscriptionSpec=1.0, application/json\r\napollo-require-preflight: 1\r\n\r\n',
    );
    await vi.waitFor(() => expect(slots).toBe(1));
    await vi.waitFor(
      () => {
        expect(returned).toBe(true);
        expect(slots).toBe(0);
      },
      { timeout: 10_000, interval: HEARTBEAT_MS },
    );
    // One event at a time, each written before the next is taken: what the socket buffers, not the stream.
    expect(pulled).toBeLessThan(400);
    socket.destroy();
  });
});
