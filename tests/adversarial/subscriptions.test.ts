import { request as httpRequest } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import {
  addReview,
  eventually,
  type Mount,
  openStream,
  type RunningGateway,
  type RunningSubgraph,
  refusalOf,
  STREAM_PROTOCOLS,
  type StreamEnd,
  type StreamOptions,
  type StreamProtocol,
  startGateway,
  startSubgraph,
  subgraphUrlEnv,
  type TestStream,
  untilLive as untilLiveAt,
  WARM_UP,
  warmUp,
} from '@fedgw/test-support';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

// Class: one client of the subscription transports (graphql-ws, graphql-sse in both modes)
// working against the others: holding more than its share of subscriptions, connections
// (from one address: WebSockets, SSE streams, single-connection reservations), sending what graphql-ws forbids (no connection_init, not
// JSON, unknown messages, a message over the body limit, a duplicate id), subscribing over its
// rate limit or past the operation limits, or slipping headers into connection_init. Each
// attacker is refused or closed, and the other clients keep subscribing and receiving events.
// Real processes: the compiled gateway on fastify, the real subgraphs, reviews behind a proxy
// that counts the WebSockets the gateway opens to it.

const KEYS = Object.fromEntries(
  ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => [name, `${name}-subscriptions-key-0123456789`]),
) as Record<string, string>;
const API_KEYS = Object.entries(KEYS)
  .map(([consumer, key]) => `${consumer}:${key}`)
  .join(',');
const REVIEW_ADDED = `subscription OnReview($productId: ID) {
  reviewAdded(productId: $productId) { rating comment author { name } product { name price } }
}`;
const TOO_DEEP = 'subscription { reviewAdded { product { reviews { author { reviews { id } } } } } }';
const TOO_MANY_ALIASES = 'subscription { reviewAdded { r1: rating r2: rating r3: rating r4: rating r5: rating } }';

let reviews: RunningSubgraph;
let products: RunningSubgraph;
let users: RunningSubgraph;
let reviewsProxy: CountingProxy;
beforeAll(async () => {
  [reviews, products, users] = await Promise.all([
    startSubgraph('reviews'),
    startSubgraph('products'),
    // Counts the x-tenant of the entity fetches each event makes for `author { name }`.
    startSubgraph('users', { SUBGRAPH_COUNT_HEADER: 'x-tenant' }),
  ]);
  reviewsProxy = await countingProxy(reviews.url);
});
afterAll(async () => {
  reviewsProxy?.close();
  await Promise.all([reviews, products, users].map((subgraph) => subgraph?.stop()));
});

const subgraphEnv = () => subgraphUrlEnv({ reviews: { url: reviewsProxy.url }, products, users });

// ---------------------------------------------------------------------------------------------
// Helpers

/**
 * A gateway for the enclosing describe block (as tests/support/lifecycle.ts's), whose stop must
 * exit 0 (a drain that fails is a failure; its output is shown).
 */
function gatewayForBlock(mount: Mount, env: () => Record<string, string>): () => RunningGateway {
  let gateway: RunningGateway | undefined;
  beforeAll(async () => {
    gateway = await startGateway(mount, env());
  });
  afterAll(async () => {
    const code = await gateway?.stop();
    if (gateway) expect(code, gateway.output().slice(-4000)).toBe(0);
  });
  return () => {
    if (!gateway) throw new Error('the gateway starts in beforeAll');
    return gateway;
  };
}

/** A TCP proxy in front of `target`: `upgrades` counts the WebSocket handshakes it carried. */
interface CountingProxy {
  readonly url: string;
  upgrades: number;
  close(): void;
}

async function countingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  const proxy = { url: '', upgrades: 0, close: () => {} };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(to.port), to.hostname);
    sockets.add(client).add(upstream);
    client.once('data', (chunk: Buffer) => {
      if (/\r\nupgrade:\s*websocket/i.test(chunk.toString('latin1'))) proxy.upgrades += 1;
    });
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      socket.on('error', () => {});
      socket.once('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${port}${to.pathname}`;
  proxy.close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  return proxy;
}

/** The key as each protocol carries it: `connection_init` for graphql-ws, headers for SSE. */
function withKey(protocol: StreamProtocol, consumer: string | undefined, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...(consumer && { 'x-api-key': KEYS[consumer] as string }), ...extra };
  return (protocol === 'ws' ? { connectionParams: { headers } } : { headers }) satisfies StreamOptions;
}

const codesOf = (end: { errors?: StreamEnd['errors'] } | undefined) =>
  end?.errors?.map((error) => error.extensions?.code);

/** Until every stream got an event (each subscription is live at the subgraph); a refused one fails at once. */
const untilLive = (streams: readonly TestStream[], productId: string) => untilLiveAt(reviews.url, streams, productId);

/**
 * Streams `open()` opens, once they are all live: opened again (the refused ones stopped) until
 * they are, as slots freed by closed connections are released asynchronously.
 */
async function liveEventually(open: () => TestStream[], productId: string): Promise<TestStream[]> {
  let live: TestStream[] = [];
  await eventually(async () => {
    const streams = open();
    try {
      await untilLive(streams, productId);
      live = streams;
    } catch (error) {
      for (const stream of streams) stream.stop();
      throw error;
    }
  }, 15_000);
  return live;
}

/** One more review reaches every stream in `streams`: none was hurt by what happened meanwhile. */
async function stillReceive(streams: readonly TestStream[], productId: string): Promise<void> {
  const counts = streams.map((stream) => stream.events.length);
  await addReview(reviews.url, { productId, rating: 5, comment: 'still here' });
  await Promise.all(streams.map((stream, i) => stream.take((counts[i] as number) + 1)));
}

/** A raw graphql-transport-ws socket: `init` sends connection_init with it once open. */
function rawSocket(graphqlUrl: string, init?: Record<string, unknown>) {
  const ws = new WebSocket(graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
  const messages: { type: string; id?: string; payload?: unknown }[] = [];
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const acked = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as (typeof messages)[number];
      messages.push(message);
      if (message.type === 'connection_ack') resolve();
      if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    });
    void closed.then((close) => reject(new Error(`closed before connection_ack: ${JSON.stringify(close)}`)));
  });
  acked.catch(() => {});
  if (init) ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: init })));
  return { ws, messages, closed, acked };
}

/** PUT: a single-connection-mode reservation; its status and body (the token, or errors). */
async function reserve(graphqlUrl: string): Promise<{ status: number; text: string }> {
  const response = await fetch(graphqlUrl, { method: 'PUT' });
  return { status: response.status, text: await response.text() };
}

/** A request from another loopback address (127.0.0.2…: another client to the gateway); its body read on demand. */
function requestFrom(localAddress: string, url: string, method: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: () => Promise<string>; close: () => void }>((resolve, reject) => {
    const request = httpRequest(url, { method, headers, localAddress }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      const ended = new Promise<string>((done) => response.once('end', () => done(text)));
      resolve({ status: response.statusCode ?? 0, body: () => ended, close: () => request.destroy() });
    });
    request.once('error', reject);
    request.end();
  });
}

/** A graphql-transport-ws upgrade from `localAddress`: the socket (connection_init sent), or the HTTP answer instead. */
function upgradeFrom(localAddress: string, graphqlUrl: string) {
  return new Promise<{ ws?: WebSocket; status?: number; body?: string }>((resolve) => {
    const ws = new WebSocket(graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', { localAddress });
    ws.on('error', () => {});
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('open', () => {
      ws.send(JSON.stringify({ type: 'connection_init' }));
      resolve({ ws });
    });
  });
}

const codeIn = (body: string | undefined) =>
  (JSON.parse(body ?? '{}') as { errors?: { extensions?: { code?: string } }[] }).errors?.map(
    (error) => error.extensions?.code,
  );

// ---------------------------------------------------------------------------------------------

describe('caps, hostile messages, limits and headers, per client (api keys)', () => {
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphEnv(),
    GATEWAY_PLUGINS: 'api-key,header-rules',
    GATEWAY_API_KEYS: API_KEYS,
    GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ propagate: { named: 'x-tenant' } }] }),
    SUBSCRIPTION_MAX_PER_CLIENT: '2',
    SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS: '1000',
    BODY_LIMIT: '16kb',
    MAX_DEPTH: '4',
    MAX_ALIASES: '3',
  }));
  const streams: TestStream[] = [];
  const open = (protocol: StreamProtocol, productId: string, options: StreamOptions) => {
    const stream = openStream(protocol, gateway().url, { query: REVIEW_ADDED, variables: { productId } }, options);
    streams.push(stream);
    return stream;
  };
  afterAll(() => {
    for (const stream of streams) stream.stop();
  });

  it('SUBSCRIPTION_MAX_PER_CLIENT=2 counts a client across its WebSockets and streams; others subscribe', async () => {
    const productId = 'product-31';
    const held = [open('ws', productId, withKey('ws', 'a')), open('sse', productId, withKey('sse', 'a'))];
    await untilLive(held, productId);
    // A third, on a new connection of any protocol, is refused; nothing reaches it.
    for (const protocol of STREAM_PROTOCOLS) {
      const third = open(protocol, productId, withKey(protocol, 'a'));
      expect(codesOf({ errors: await refusalOf(protocol, third) }), protocol).toEqual(['SUBSCRIPTION_MAX_LIMIT']);
    }
    // Another client is not counted with a: it holds its own two, and everyone gets the events.
    const others = [
      open('ws', productId, withKey('ws', 'b')),
      open('sse-single', productId, withKey('sse-single', 'b')),
    ];
    await untilLive(others, productId);
    await stillReceive([...held, ...others], productId);
    // Once a client's subscriptions end (it stopped them: closed its WebSocket, its distinct
    // stream, its single-connection stream), its slots are free again.
    for (const stream of [...held, ...others]) stream.stop();
    const again = await liveEventually(
      () => [
        open('ws', productId, withKey('ws', 'a')),
        open('sse', productId, withKey('sse', 'a')),
        open('sse', productId, withKey('sse', 'b')),
        open('sse-single', productId, withKey('sse-single', 'b')),
      ],
      productId,
    );
    for (const stream of again) stream.stop();
  });

  describe('a client sending what graphql-ws forbids is closed; the others keep their events', () => {
    const productId = 'product-32';
    let bystanders: TestStream[];
    beforeAll(async () => {
      bystanders = [open('ws', productId, withKey('ws', 'c')), open('sse', productId, withKey('sse', 'c'))];
      await untilLive(bystanders, productId);
    });
    const init = { headers: { 'x-api-key': KEYS.f } };

    it('no connection_init: closed 4408 after SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS', async () => {
      const attacker = rawSocket(gateway().url);
      expect((await attacker.closed).code).toBe(4408);
      expect(attacker.messages).toEqual([]);
      await stillReceive(bystanders, productId);
    });

    it.each([
      ['a message that is not JSON', '{"type": "subscribe", '],
      ['an unknown message type', JSON.stringify({ type: 'take_over', id: '1', payload: {} })],
      ['a subscribe without an id', JSON.stringify({ type: 'subscribe', payload: { query: REVIEW_ADDED } })],
    ])('%s: closed 4400', async (_name, message) => {
      const attacker = rawSocket(gateway().url, init);
      await attacker.acked;
      attacker.ws.send(message);
      expect((await attacker.closed).code).toBe(4400);
      await stillReceive(bystanders, productId);
    });

    it('a message over the body limit (BODY_LIMIT=16kb): closed 1009', async () => {
      const attacker = rawSocket(gateway().url, init);
      await attacker.acked;
      const query = `subscription { reviewAdded { id } } # ${'x'.repeat(64 * 1024)}`;
      attacker.ws.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query } }));
      expect((await attacker.closed).code).toBe(1009);
      expect(
        attacker.messages.filter((message) => message.type !== 'ping' && message.type !== 'connection_ack'),
      ).toEqual([]);
      await stillReceive(bystanders, productId);
    });

    it('a second subscribe with the id of a live one: closed 4409', async () => {
      const attacker = rawSocket(gateway().url, init);
      await attacker.acked;
      const subscribe = JSON.stringify({
        type: 'subscribe',
        id: 'same',
        payload: { query: REVIEW_ADDED, variables: { productId } },
      });
      attacker.ws.send(subscribe);
      await warmUp({
        reviewsUrl: reviews.url,
        productId,
        live: () => attacker.messages.some((message) => message.type === 'next'),
      });
      attacker.ws.send(subscribe);
      expect((await attacker.closed).code).toBe(4409);
      await stillReceive(bystanders, productId);
    });

    it('the attacks left no subscription behind: its client may hold its two again', async () => {
      const again = await liveEventually(
        () => [open('ws', productId, withKey('ws', 'f')), open('sse', productId, withKey('sse', 'f'))],
        productId,
      );
      for (const stream of again) stream.stop();
    });
  });

  it('operation limits refuse a subscription before any socket to the subgraph is opened', async () => {
    const productId = 'product-33';
    const before = reviewsProxy.upgrades;
    for (const protocol of STREAM_PROTOCOLS) {
      for (const [query, code] of [
        [TOO_DEEP, 'MAX_DEPTH_LIMIT'],
        [TOO_MANY_ALIASES, 'MAX_ALIASES_LIMIT'],
      ] as const) {
        const stream = openStream(protocol, gateway().url, { query }, withKey(protocol, 'd'));
        expect(codesOf({ errors: await refusalOf(protocol, stream) }), protocol).toEqual([code]);
      }
    }
    await addReview(reviews.url, { productId, rating: 2, comment: 'nobody listens' });
    expect(reviewsProxy.upgrades).toBe(before);
    // The proxy does see the socket of a subscription that is admitted: one per subscription.
    const admitted = open('ws', productId, withKey('ws', 'd'));
    await untilLive([admitted], productId);
    expect(reviewsProxy.upgrades).toBe(before + 1);
    admitted.stop();
  });

  it("headers in connection_init are the connection's own: its tenant reaches the subgraphs, no one else's", async () => {
    const productId = 'product-34';
    const counts = async () =>
      (await (await fetch(`${new URL(users.url).origin}/header-counts`)).json()) as {
        counts: Record<string, number>;
        missing: number;
      };
    const before = await counts();
    // e sets x-tenant (and connection-level headers, which are dropped) in connection_init; g sends none.
    const tenant = open(
      'ws',
      productId,
      withKey('ws', 'e', {
        'x-tenant': 'tenant-e',
        host: 'evil.example',
        connection: 'close',
        'content-length': '0',
        'sec-websocket-protocol': 'evil',
      }),
    );
    const plain = open('ws', productId, withKey('ws', 'g'));
    await untilLive([tenant, plain], productId);
    await stillReceive([tenant, plain], productId);
    const after = await counts();
    expect(Object.keys(after.counts)).toEqual(['tenant-e']);
    // Each event of each subscription fetched its author from users once at least: e's with e's tenant, g's with none.
    expect(after.counts['tenant-e'] as number).toBeGreaterThanOrEqual((before.counts['tenant-e'] ?? 0) + 2);
    expect(after.missing).toBeGreaterThanOrEqual(before.missing + 2);
    tenant.stop();
    plain.stop();
  });
});

// ---------------------------------------------------------------------------------------------

describe('connections: SUBSCRIPTION_MAX_CONNECTIONS=3, reservations, idle connections (anonymous)', () => {
  const MAX_CONNECTIONS = 3;
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphEnv(),
    SUBSCRIPTION_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
    // Every test client is 127.0.0.1: its share is the whole, to reach the cap of all clients.
    SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT: String(MAX_CONNECTIONS),
    SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS: '3000',
    SUBSCRIPTION_IDLE_TIMEOUT_MS: '1500',
  }));
  const streams: TestStream[] = [];
  const open = (protocol: StreamProtocol, productId: string) => {
    const stream = openStream(protocol, gateway().url, { query: REVIEW_ADDED, variables: { productId } });
    streams.push(stream);
    return stream;
  };
  afterAll(() => {
    for (const stream of streams) stream.stop();
  });
  /** A live stream, once a connection is free (the slots of closed ones are released as their sockets close). */
  const openLive = async (protocol: StreamProtocol, productId: string): Promise<TestStream> =>
    (await liveEventually(() => [open(protocol, productId)], productId))[0] as TestStream;
  const expectNoConnection = async (productId: string) => {
    for (const protocol of STREAM_PROTOCOLS) {
      const refused = open(protocol, productId);
      const end = await refused.ended;
      expect(end.status, `${protocol}: ${JSON.stringify(end)}`).toBe(503);
      if (protocol !== 'ws') expect(codesOf(end)).toEqual(['SUBSCRIPTION_MAX_LIMIT']);
      expect(refused.events).toEqual([]);
    }
  };

  // First, while every slot is free (the sockets of a closed connection are released asynchronously).
  it('single-connection reservations never opened count as connections and expire, freeing them', async () => {
    const productId = 'product-43';
    const tokens: string[] = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const reservation = await reserve(gateway().url);
      expect(reservation.status, reservation.text).toBe(201);
      tokens.push(reservation.text);
    }
    // Held by PUTs alone: nobody gets a connection.
    await expectNoConnection(productId);
    const more = await reserve(gateway().url);
    expect(more.status).toBe(503);
    expect(JSON.parse(more.text).errors[0].extensions.code).toBe('SUBSCRIPTION_MAX_LIMIT');
    // After SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS the reservations are gone, and their slots with them.
    const live = await openLive('ws', productId);
    for (const token of tokens) {
      const response = await fetch(gateway().url, {
        headers: { accept: 'text/event-stream', 'x-graphql-event-stream-token': token },
      });
      await response.body?.cancel();
      expect(response.status).toBe(404);
    }
    live.stop();
  });

  it('a WebSocket with no operation is closed (1000 Idle); one with a subscription is not', async () => {
    const productId = 'product-41';
    const subscribed = await openLive('ws', productId);
    const idle = rawSocket(gateway().url, {});
    await idle.acked;
    expect(await idle.closed).toEqual({ code: 1000, reason: 'Idle' });
    // Past the idle timeout, the subscribed connection is open and served.
    await stillReceive([subscribed], productId);
    subscribed.stop();
  });

  it('an opened single-connection stream with no operation ends after SUBSCRIPTION_IDLE_TIMEOUT_MS and frees its slot; one with a subscription does not', async () => {
    const productId = 'product-44';
    const subscribed = await openLive('sse-single', productId);
    let token = '';
    await eventually(async () => {
      const reservation = await reserve(gateway().url);
      expect(reservation.status, reservation.text).toBe(201);
      token = reservation.text;
    }, 15_000);
    const headers = { accept: 'text/event-stream', 'x-graphql-event-stream-token': token };
    const opened = Date.now();
    const idle = await fetch(gateway().url, { headers });
    expect(idle.status).toBe(200);
    // Nothing but graphql-sse's first comment line until the gateway cuts it.
    const reader = idle.body?.getReader();
    const read = new TextDecoder().decode((await reader?.read())?.value);
    expect(read).toBe(':\n\n');
    expect(
      await reader?.read().then(
        (step) => (step.done ? 'ended' : 'more'),
        () => 'cut',
      ),
    ).toBe('cut');
    expect(Date.now() - opened).toBeGreaterThanOrEqual(1000);
    // Forgotten at once: its token opens nothing any more, from the first request after the cut.
    const again = await fetch(gateway().url, { headers });
    await again.body?.cancel();
    expect(again.status).toBe(404);
    // The subscribed stream is open past the idle timeout, and its slot and the idle one's
    // successor fill the three: the idle stream's slot was freed.
    const more = [await openLive('ws', productId), await openLive('sse', productId)];
    await stillReceive([subscribed, ...more], productId);
    for (const stream of [subscribed, ...more]) stream.stop();
  });

  it("graphql-sse's client keeping its single connection open goes on after the gateway closed it idle", async () => {
    // Each event stream the client opens, watched for its end (the gateway closing it).
    const streamEnds: Promise<void>[] = [];
    const client = createSseClient({
      url: gateway().url,
      singleConnection: true,
      lazyCloseTimeout: 60_000,
      retryAttempts: 0,
      fetchFn: async (input: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(input, init);
        if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
        const [watched, given] = response.body.tee();
        streamEnds.push(watched.pipeTo(new WritableStream()).catch(() => {}));
        return new Response(given, response);
      },
    });
    const query = { query: '{ product(id: "product-1") { id } }' };
    const results = async () => {
      const all: unknown[] = [];
      for await (const result of client.iterate(query)) all.push(result);
      return all;
    };
    try {
      expect(await results()).toEqual([{ data: { product: { id: 'product-1' } } }]);
      // Past SUBSCRIPTION_IDLE_TIMEOUT_MS (1.5 s) the gateway closes its stream; its next operation opens another.
      expect(streamEnds).toHaveLength(1);
      await streamEnds[0];
      expect(await results()).toEqual([{ data: { product: { id: 'product-1' } } }]);
      expect(streamEnds).toHaveLength(2);
    } finally {
      client.dispose();
    }
  });

  it('every connection held (all clients together) gets 503 for more (WS upgrade, SSE); closing one frees a slot', async () => {
    const productId = 'product-42';
    const held = [await openLive('ws', productId), await openLive('sse', productId), await openLive('ws', productId)];
    await expectNoConnection(productId);
    const reservation = await reserve(gateway().url);
    expect(reservation.status).toBe(503);
    expect(JSON.parse(reservation.text).errors[0].extensions.code).toBe('SUBSCRIPTION_MAX_LIMIT');
    // The connections held are not hurt by the refusals.
    await stillReceive(held, productId);
    held[0]?.stop();
    held[1]?.stop();
    const next = [await openLive('sse-single', productId), await openLive('ws', productId)];
    await stillReceive([...next, held[2] as TestStream], productId);
    for (const stream of [...next, ...held]) stream.stop();
  });
});

// ---------------------------------------------------------------------------------------------

describe('connections per address: SUBSCRIPTION_MAX_CONNECTIONS=30, so by default 3 per client address', () => {
  const ATTACKER = '127.0.0.2';
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphEnv(),
    SUBSCRIPTION_MAX_CONNECTIONS: '30',
    // The attacker's reservation is held, not expired, for the whole test.
    SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS: '30000',
  }));
  const streams: TestStream[] = [];
  afterAll(() => {
    for (const stream of streams) stream.stop();
  });

  it('one address holding its share (a WebSocket, an SSE stream, a reservation) is refused a fourth of each kind with 429; another address connects and gets events', async () => {
    const productId = 'product-46';
    const url = gateway().url;
    const subscribeOverGet = `${url}?query=${encodeURIComponent(`subscription { reviewAdded(productId: "${productId}") { rating } }`)}`;
    const socket = await upgradeFrom(ATTACKER, url);
    const stream = await requestFrom(ATTACKER, subscribeOverGet, 'GET', { accept: 'text/event-stream' });
    const reservation = await requestFrom(ATTACKER, url, 'PUT');
    try {
      expect([socket.ws !== undefined, stream.status, reservation.status]).toEqual([true, 200, 201]);
      // A fourth, of any kind, is refused before any stream opens or the upgrade happens.
      const upgrade = await upgradeFrom(ATTACKER, url);
      expect([upgrade.status, codeIn(upgrade.body)]).toEqual([429, ['SUBSCRIPTION_MAX_LIMIT']]);
      for (const refused of [
        await requestFrom(ATTACKER, subscribeOverGet, 'GET', { accept: 'text/event-stream' }),
        await requestFrom(ATTACKER, url, 'PUT'),
      ]) {
        expect([refused.status, codeIn(await refused.body())]).toEqual([429, ['SUBSCRIPTION_MAX_LIMIT']]);
      }
      // Other clients (127.0.0.1) connect by every protocol and get the events.
      const others = STREAM_PROTOCOLS.map((protocol) => {
        const other = openStream(protocol, url, { query: REVIEW_ADDED, variables: { productId } });
        streams.push(other);
        return other;
      });
      await untilLive(others, productId);
      await stillReceive(others, productId);
      // Closing one of its connections gives the address one back.
      stream.close();
      await eventually(async () => {
        const again = await requestFrom(ATTACKER, url, 'PUT');
        expect(again.status, await again.body()).toBe(201);
      }, 15_000);
    } finally {
      socket.ws?.terminate();
      stream.close();
      reservation.close();
    }
  });
});

describe('rate limit on subscribe (rate-limit keyed by api-key, RATE_LIMIT_MAX=2)', () => {
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphEnv(),
    GATEWAY_PLUGINS: 'api-key,rate-limit',
    GATEWAY_API_KEYS: API_KEYS,
    RATE_LIMIT_KEY: 'api-key',
    RATE_LIMIT_MAX: '2',
    RATE_LIMIT_WINDOW: '10m',
  }));
  const streams: TestStream[] = [];
  const open = (protocol: StreamProtocol, productId: string, consumer: string) => {
    const stream = openStream(
      protocol,
      gateway().url,
      { query: REVIEW_ADDED, variables: { productId } },
      withKey(protocol, consumer),
    );
    streams.push(stream);
    return stream;
  };
  afterAll(() => {
    for (const stream of streams) stream.stop();
  });

  it('refuses the client over its limit (REQUEST_RATE_LIMITED) on every protocol; its live ones and other keys go on', async () => {
    const productId = 'product-51';
    const within = [open('ws', productId, 'a'), open('sse', productId, 'a')];
    await untilLive(within, productId);
    for (const protocol of ['ws', 'sse'] as const) {
      const over = open(protocol, productId, 'a');
      expect(codesOf({ errors: await refusalOf(protocol, over) }), protocol).toEqual(['REQUEST_RATE_LIMITED']);
    }
    // A single-connection stream is refused at its reservation (PUT), which is charged too.
    const single = await open('sse-single', productId, 'a').ended;
    expect(single.status).toBe(429);
    expect(codesOf(single)).toEqual(['REQUEST_RATE_LIMITED']);
    const other = [open('ws', productId, 'b'), open('sse', productId, 'b')];
    await untilLive(other, productId);
    await stillReceive([...within, ...other], productId);
  });

  it('charges each reservation PUT too: the third from one key is refused (429 REQUEST_RATE_LIMITED), not reserved', async () => {
    const put = () => fetch(gateway().url, { method: 'PUT', headers: { 'x-api-key': KEYS.c as string } });
    expect((await put()).status).toBe(201);
    expect((await put()).status).toBe(201);
    const refused = await put();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'REQUEST_RATE_LIMITED',
    );
  });
});

describe('MAX_RESPONSE_BYTES per event (1kb)', () => {
  const gateway = gatewayForBlock('fastify', () => ({ ...subgraphEnv(), MAX_RESPONSE_BYTES: '1kb' }));
  const HUGE = `subscription ($productId: ID) { reviewAdded(productId: $productId) {
    author { orders { product { name price reviews { comment author { name email } } } } } } }`;

  it('answers an event over the limit with RESPONSE_TOO_LARGE (data null); a small subscription on the same gateway is whole', async () => {
    const productId = 'product-52';
    const huge = openStream('ws', gateway().url, { query: HUGE, variables: { productId } });
    const small = openStream('ws', gateway().url, { query: REVIEW_ADDED, variables: { productId } });
    try {
      await untilLive([huge, small], productId);
      expect(huge.events[0]).toEqual({
        data: null,
        errors: [
          {
            message: 'The response is larger than the limit of 1024 bytes; ask for less (paginate).',
            extensions: { code: 'RESPONSE_TOO_LARGE', maxResponseBytes: 1024 },
          },
        ],
      });
      expect(small.events[0]?.errors).toBeUndefined();
      expect(small.events[0]?.data).toMatchObject({ reviewAdded: { comment: WARM_UP } });
    } finally {
      huge.stop();
      small.stop();
    }
  });
});
