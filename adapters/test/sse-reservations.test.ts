import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { SubscriptionEndpoint } from '@fedgw/gateway/contract';
import { type ManualClock, manualClock } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sseHandler } from '../src/subscriptions/sse.js';

// Every reservation gets the same token, so a second PUT shows whether graphql-sse still holds the
// first one: it answers 409 "Stream already registered" for a token it has not forgotten.
vi.mock('node:crypto', async (original) => ({
  ...(await original<typeof import('node:crypto')>()),
  randomUUID: () => 'the-only-token',
}));

const EXPIRES_MS = 50;
let slots = 0;
/** An endpoint whose reservations expire unopened after `expiresMs`, counting its connection slots in `slots`. */
const endpointExpiringIn = (expiresMs: number): SubscriptionEndpoint => ({
  // The transport choice is the mounts' (not exercised here).
  transportFor: () => 'json',
  limits: {
    maxConnections: 10,
    maxPerConnection: 10,
    heartbeatMs: 10_000,
    multipartHeartbeatMs: 10_000,
    connectionInitTimeoutMs: expiresMs,
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
  operate: async () => ({ kind: 'answer', status: 200, result: { data: {} } }),
  onDrain: () => {},
});

interface Served {
  readonly url: string;
  readonly sse: NonNullable<ReturnType<typeof sseHandler>>;
  /** The responses of the event streams opened, newest last. */
  readonly streams: ServerResponse[];
  readonly server: Server;
  /** The handler's clock: reservations expire only when the test moves it. */
  readonly clock: ManualClock;
}

/** The SSE handler of `endpoint` on a server of its own, over loopback. */
async function serve(endpoint: SubscriptionEndpoint): Promise<Served> {
  const clock = manualClock();
  const sse = sseHandler({ subscriptions: endpoint }, { clock });
  if (!sse) throw new Error('an endpoint with subscriptions has an SSE handler');
  const streams: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (req.headers.accept?.includes('text/event-stream')) streams.push(res);
    void sse(req, res, undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`;
  return { url, sse, streams, server, clock };
}

const reserve = async (url: string) => {
  const response = await fetch(url, { method: 'PUT' });
  return { status: response.status, text: await response.text() };
};

describe('single-connection reservations never opened (graphql-sse)', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(endpointExpiringIn(EXPIRES_MS));
  });
  afterAll(() => served?.server.close());

  it('expire: their connection slot is released and graphql-sse forgets the stream too', async () => {
    expect(await reserve(served.url)).toEqual({ status: 201, text: 'the-only-token' });
    expect(slots).toBe(1);
    await served.clock.advance(EXPIRES_MS - 1);
    expect(slots).toBe(1);
    await served.clock.advance(1); // expired, and forgotten by graphql-sse when this resolves
    expect(slots).toBe(0);
    // Its token is unknown now, to us and to graphql-sse: the same token can be reserved again.
    const opened = await fetch(served.url, {
      headers: { accept: 'text/event-stream', 'x-graphql-event-stream-token': 'the-only-token' },
    });
    await opened.body?.cancel();
    expect(opened.status).toBe(404);
    expect(await reserve(served.url)).toEqual({ status: 201, text: 'the-only-token' });
  });
});

describe('a single-connection stream the gateway cut', () => {
  // A server of its own: its reservations never expire (its clock stays put).
  let served: Served;
  beforeAll(async () => {
    served = await serve(endpointExpiringIn(EXPIRES_MS));
  });
  afterAll(() => served?.server.close());

  it('is unknown (404) to a request in the same turn as the cut, before its close event, and to the next one', async () => {
    const reservation = await reserve(served.url);
    expect(reservation.status).toBe(201);
    const headers = { accept: 'text/event-stream', 'x-graphql-event-stream-token': reservation.text };
    const opened = await fetch(served.url, { headers });
    expect(opened.status).toBe(200);
    const stream = served.streams.at(-1) as ServerResponse;
    // The gateway's cut (idle, or too far behind), and a request with the token before the
    // response's close event: handed to the handler directly, as no socket can be that quick.
    stream.destroy();
    const socket = new Socket();
    const early = new IncomingMessage(socket);
    early.method = 'GET';
    early.url = '/graphql';
    early.headers = { ...headers };
    const answer = new ServerResponse(early);
    await served.sse(early, answer, undefined);
    expect(answer.statusCode).toBe(404);
    socket.destroy();
    await opened.body?.cancel().catch(() => {});
    const later = await fetch(served.url, { headers });
    await later.body?.cancel();
    expect(later.status).toBe(404);
  });
});
