import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getProduct, getUser } from '@fedgw/subgraphs';
import {
  addReview,
  closedPortUrl,
  MOUNTS,
  type Mount,
  openStream,
  postGraphQL,
  ROOT,
  type RunningSubgraph,
  type SubgraphName,
  spawnInGroup,
  startGateway,
  startSubgraphs,
  untilLive,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpGrpcReceiver } from './otlp-grpc-receiver.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';

/**
 * OpenTelemetry tracing on every mount: the compiled gateway exports to a real OTLP receiver
 * on loopback, in front of the real subgraphs behind header-recording proxies. One request
 * with a client's `traceparent`; the gateway is then stopped (SIGTERM), which must flush.
 */
const QUERY =
  'query GetUserWithProducts($userId: ID!) { user(id: $userId) { id name orders { id product { id name } } } }';
const CLIENT_TOKEN = 'client-bearer-token-1f2e3d';
const VARIABLE_VALUE = 'user-5';
const OTLP_KEY = 'otlp-api-key-9a8b7c';
const USER_AGENT = 'tracing-contract/1.0';
/** What a client may write in `baggage`: not for the subgraphs unless OTEL_PROPAGATORS says `baggage`. */
const CLIENT_BAGGAGE = 'tenant=admin';

/** Headers of every subgraph request, in the order the proxies received them. */
const sentHeaders: IncomingHttpHeaders[] = [];
const subgraphHeaders = () => sentHeaders;
let subgraphs: Record<SubgraphName, RunningSubgraph>;
let proxies: RecordingProxy[];
beforeAll(async () => {
  subgraphs = await startSubgraphs();
  proxies = await Promise.all(
    Object.values(subgraphs).map((subgraph) => startRecordingProxy(subgraph.url, sentHeaders)),
  );
});
afterAll(async () => {
  await Promise.all([...Object.values(subgraphs ?? {}).map((s) => s.stop()), ...(proxies ?? []).map((p) => p.close())]);
});

const subgraphEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.keys(subgraphs).map((name, i) => [`SUBGRAPH_${name.toUpperCase()}_URL`, proxies[i]?.url ?? '']),
  );

/** A fresh W3C trace context, as a client (or a load balancer) would send it. */
function clientTraceparent(sampled = true) {
  const traceId = randomHex(16);
  const parentId = randomHex(8);
  return { traceId, parentId, header: `00-${traceId}-${parentId}-${sampled ? '01' : '00'}` };
}
const randomHex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');

/** Starts a gateway exporting to `receiver`, sends the one traced request, stops the gateway (flush). */
async function tracedRequest(mount: Mount, receiver: OtlpReceiver, env: Record<string, string>, sampled = true) {
  const gateway = await startGateway(mount, {
    ...subgraphEnv(),
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_SERVICE_NAME: 'gateway-under-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=contract,service.name=overridden',
    OTEL_EXPORTER_OTLP_HEADERS: `x-otlp-key=${OTLP_KEY}`,
    ...env,
  });
  const trace = clientTraceparent(sampled);
  const before = subgraphHeaders().length;
  const result = await postGraphQL(
    gateway.url,
    { query: QUERY, variables: { userId: VARIABLE_VALUE }, operationName: 'GetUserWithProducts' },
    {
      traceparent: trace.header,
      authorization: `Bearer ${CLIENT_TOKEN}`,
      'x-request-id': `trace-${trace.traceId}`,
      'user-agent': USER_AGENT,
      baggage: CLIENT_BAGGAGE,
    },
  );
  expect(result.status).toBe(200);
  expect(result.body.errors).toBeUndefined();
  const sent = subgraphHeaders().slice(before);
  expect(await gateway.stop()).toBe(0);
  return {
    trace,
    sent,
    output: gateway.output(),
    logLines: gateway.logLines(),
    port: Number(new URL(gateway.url).port),
  };
}

/** Each span's parent, by id. */
const parentOf = (spans: ReceivedSpan[]) => {
  const ids = new Map(spans.map((span) => [span.spanId, span]));
  return (span: ReceivedSpan) => ids.get(span.parentSpanId);
};
/** The HTTP client spans: one per attempt of each subgraph fetch. */
const clientSpans = (spans: ReceivedSpan[]) => spans.filter((span) => span.kind === 3);

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
const one = (spans: ReceivedSpan[], name: string) => {
  const found = byName(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReceivedSpan;
};

const CASES: [Mount, 'http/json' | 'http/protobuf'][] = [
  ...MOUNTS.map((mount): [Mount, 'http/json'] => [mount, 'http/json']),
  ['nest-fastify', 'http/protobuf'], // the default protocol
];
describe.each(CASES)('tracing on %s, exported as %s', (mount, protocol) => {
  let receiver: OtlpReceiver;
  let run: Awaited<ReturnType<typeof tracedRequest>>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    run = await tracedRequest(mount, receiver, { OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('exports every span of the request in the trace the client started, flushed at shutdown', () => {
    expect(receiver.spans.length).toBeGreaterThanOrEqual(6);
    expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set([run.trace.traceId]));
    expect(receiver.exports.every((e) => e.path === '/v1/traces')).toBe(true);
    const type = protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
    expect(receiver.exports.every((e) => e.contentType.startsWith(type))).toBe(true);
  });

  it('nests the spans: HTTP server span → gateway.request → validate, plan, execute → fetch', () => {
    const spans = receiver.spans;
    const server = one(spans, 'POST /graphql');
    expect(server.kind).toBe(2); // SERVER
    expect(server.parentSpanId).toBe(run.trace.parentId);
    const request = one(spans, 'gateway.request');
    expect(request.parentSpanId).toBe(server.spanId);
    for (const name of ['gateway.validate', 'gateway.plan', 'gateway.execute']) {
      expect(one(spans, name).parentSpanId, name).toBe(request.spanId);
    }
    const execute = one(spans, 'gateway.execute');
    const fetches = byName(spans, 'gateway.fetch');
    expect(fetches.length).toBeGreaterThanOrEqual(2); // users, then products
    const ids = new Map(spans.map((span) => [span.spanId, span]));
    for (const fetch of fetches) {
      let ancestor = ids.get(fetch.parentSpanId);
      while (ancestor && ancestor !== execute) ancestor = ids.get(ancestor.parentSpanId);
      expect(ancestor, 'gateway.fetch under gateway.execute').toBe(execute);
      expect(fetch.attributes['fedgw.subgraph.outcome']).toBe('ok');
    }
  });

  it('makes one HTTP client span per subgraph fetch, under its gateway.fetch, with the HTTP client conventions', () => {
    const fetches = byName(receiver.spans, 'gateway.fetch');
    const clients = clientSpans(receiver.spans);
    const parent = parentOf(receiver.spans);
    expect(clients).toHaveLength(fetches.length);
    const proxyPorts = new Set(proxies.map((proxy) => Number(new URL(proxy.url).port)));
    for (const fetch of fetches) {
      const own = clients.filter((client) => parent(client) === fetch);
      expect(own, 'one attempt per fetch').toHaveLength(1);
      const client = own[0] as ReceivedSpan;
      expect(client.name).toBe('POST');
      expect(client.status.code).toBe(0); // unset: the attempt succeeded
      expect(client.attributes).toMatchObject({
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'http.response.status_code': 200,
        'fedgw.subgraph.name': fetch.attributes.service,
      });
      expect(proxyPorts.has(client.attributes['server.port'] as number)).toBe(true);
      expect(client.attributes['url.full']).toBe(`http://127.0.0.1:${client.attributes['server.port']}/graphql`);
      expect(client.attributes).not.toHaveProperty('http.request.resend_count');
      expect(client.attributes).not.toHaveProperty('error.type');
    }
  });

  it('records the method, route, status, address, client, user agent, request id and operation name on the server span', () => {
    const server = one(receiver.spans, 'POST /graphql');
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/graphql',
      'url.path': '/graphql',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': run.port,
      'user_agent.original': USER_AGENT,
      'http.response.status_code': 200,
      'fedgw.request.id': `trace-${run.trace.traceId}`,
      'graphql.operation.name': 'GetUserWithProducts',
    });
    expect(server.attributes['client.address']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    // Ours are namespaced: nothing of the gateway's outside `fedgw.` but the conventions' names.
    const own = receiver.spans
      .flatMap((span) => Object.keys(span.attributes))
      .filter((key) => /^(request|subgraph)\./.test(key));
    expect(own).toEqual([]);
    expect(server.resource).toMatchObject({
      'service.name': 'gateway-under-test',
      'deployment.environment': 'contract',
    });
  });

  it('records no credential, header value or variable in any span', () => {
    const values = JSON.stringify(receiver.spans.map((span) => span.attributes));
    expect(values).not.toContain(CLIENT_TOKEN);
    expect(values).not.toContain(VARIABLE_VALUE);
    expect(values.toLowerCase()).not.toContain('authorization');
    expect(values.toLowerCase()).not.toContain('bearer');
  });

  it('sends every subgraph request a traceparent of the same trace, parented by its client span', () => {
    const clientIds = new Set(clientSpans(receiver.spans).map((span) => span.spanId));
    expect(run.sent.length).toBeGreaterThanOrEqual(2);
    for (const headers of run.sent) {
      const [version, traceId, parentId, flags] = String(headers.traceparent).split('-');
      expect([version, traceId, flags]).toEqual(['00', run.trace.traceId, '01']);
      expect(clientIds.has(parentId as string), 'parent is an HTTP client span').toBe(true);
      // OTEL_PROPAGATORS unset: W3C trace context only; the client's baggage stays at the edge.
      expect(headers.baggage).toBeUndefined();
    }
    expect(new Set(run.sent.map((headers) => headers.traceparent)).size).toBe(run.sent.length);
  });

  it("writes the trace and span ids on the request's log line, so it joins the trace", () => {
    const server = one(receiver.spans, 'POST /graphql');
    const line = run.logLines.find(
      (entry) => entry.msg === 'request completed' && entry.requestId === `trace-${run.trace.traceId}`,
    );
    expect(line).toMatchObject({ trace_id: run.trace.traceId, span_id: server.spanId, trace_flags: '01' });
    // Lines written outside a request (startup, shutdown) carry none.
    const ready = run.logLines.find((entry) => entry.msg === 'gateway ready');
    expect(ready).toBeDefined();
    expect(ready).not.toHaveProperty('trace_id');
  });

  it('sends OTEL_EXPORTER_OTLP_HEADERS with each export and never logs them', () => {
    expect(receiver.exports.every((e) => e.headers['x-otlp-key'] === OTLP_KEY)).toBe(true);
    expect(run.output).toContain('"msg":"tracing on"');
    expect(run.output).not.toContain(OTLP_KEY);
  });
});

describe('tracing samplers and settings', () => {
  it('a traceidratio sampler with ratio 0 exports no span, even for a sampled parent; propagation goes on', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const run = await tracedRequest('fastify', receiver, {
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0',
      });
      expect(receiver.spans).toEqual([]);
      expect(run.sent.length).toBeGreaterThanOrEqual(2);
      for (const headers of run.sent) {
        const [, traceId, , flags] = String(headers.traceparent).split('-');
        expect([traceId, flags]).toEqual([run.trace.traceId, '00']); // same trace, not sampled
      }
    } finally {
      await receiver.close();
    }
  });

  it("a retried fetch has a client span per attempt, and the breaker's refusal an error span with its reason", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const gateway = await startGateway('fastify', {
        ...subgraphEnv(),
        SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
        SUBGRAPH_REVIEWS_RETRIES: '1',
        SUBGRAPH_REVIEWS_CIRCUIT_MIN_REQUESTS: '2',
        SUBGRAPH_REVIEWS_CIRCUIT_COOLDOWN_MS: '600000',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
      const query = '{ topProducts(first: 1) { id reviews { rating } } }';
      const codes = async () =>
        ((await postGraphQL(gateway.url, { query })).body.errors ?? []).map((error) => error.extensions?.code);
      expect(await codes()).toContain('SUBREQUEST_HTTP_ERROR'); // two refused connections: the breaker opens
      expect(await codes()).toContain('SUBGRAPH_CIRCUIT_OPEN');
      expect(await gateway.stop()).toBe(0);

      const reviews = clientSpans(receiver.spans).filter(
        (span) => span.attributes['fedgw.subgraph.name'] === 'reviews',
      );
      const parent = parentOf(receiver.spans);
      const [first, retry, refused] = reviews;
      expect(reviews).toHaveLength(3);
      // The first fetch: two attempts under one gateway.fetch, the second counted as a resend.
      expect(parent(first as ReceivedSpan)).toBe(parent(retry as ReceivedSpan));
      expect(first?.attributes).not.toHaveProperty('http.request.resend_count');
      expect(retry?.attributes['http.request.resend_count']).toBe(1);
      for (const attempt of [first, retry]) {
        expect(attempt?.attributes['error.type']).toBe('SUBREQUEST_HTTP_ERROR');
        expect(attempt?.attributes).not.toHaveProperty('http.response.status_code');
        expect(attempt?.status).toEqual({ code: 2, message: 'SUBREQUEST_HTTP_ERROR' });
      }
      // The second fetch: nothing sent, and the span says why.
      expect(parent(refused as ReceivedSpan)?.name).toBe('gateway.fetch');
      expect(refused?.attributes['error.type']).toBe('SUBGRAPH_CIRCUIT_OPEN');
      expect(refused?.status).toEqual({ code: 2, message: 'circuit breaker open: the request was not sent' });
      expect(parent(refused as ReceivedSpan)?.status.code).toBe(2);
    } finally {
      await receiver.close();
    }
  });

  it('exports over OTLP/gRPC, and propagates B3 (multi-header) and baggage when OTEL_PROPAGATORS says so', async () => {
    const receiver = await startOtlpGrpcReceiver();
    try {
      const gateway = await startGateway('express', {
        ...subgraphEnv(),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_HEADERS: `x-otlp-key=${OTLP_KEY}`,
        OTEL_PROPAGATORS: 'b3multi,baggage',
      });
      const traceId = randomHex(16);
      const parentId = randomHex(8);
      const before = subgraphHeaders().length;
      const result = await postGraphQL(
        gateway.url,
        { query: QUERY, variables: { userId: VARIABLE_VALUE } },
        { 'x-b3-traceid': traceId, 'x-b3-spanid': parentId, 'x-b3-sampled': '1', baggage: CLIENT_BAGGAGE },
      );
      expect(result.status).toBe(200);
      const sent = subgraphHeaders().slice(before);
      expect(await gateway.stop()).toBe(0);
      expect(gateway.output()).toContain('"protocol":"grpc"');
      expect(gateway.output()).not.toContain(OTLP_KEY);

      expect(receiver.exports.length).toBeGreaterThanOrEqual(1);
      expect(receiver.exports.every((metadata) => metadata['x-otlp-key'] === OTLP_KEY)).toBe(true);
      expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set([traceId]));
      expect(one(receiver.spans, 'POST /graphql').parentSpanId).toBe(parentId);
      const clientIds = new Set(clientSpans(receiver.spans).map((span) => span.spanId));
      expect(sent.length).toBeGreaterThanOrEqual(2);
      for (const headers of sent) {
        expect(headers['x-b3-traceid']).toBe(traceId);
        expect(clientIds.has(String(headers['x-b3-spanid'])), 'parent is an HTTP client span').toBe(true);
        expect(headers['x-b3-sampled']).toBe('1');
        expect(headers.baggage).toBe(CLIENT_BAGGAGE);
        expect(headers.traceparent).toBeUndefined();
      }
    } finally {
      await receiver.close();
    }
  });

  it('without an OTLP endpoint there is no tracing and no traceparent is invented', async () => {
    const gateway = await startGateway('express', subgraphEnv());
    const before = subgraphHeaders().length;
    const result = await postGraphQL(gateway.url, { query: QUERY, variables: { userId: 'user-5' } });
    expect(result.status).toBe(200);
    const sent = subgraphHeaders().slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const headers of sent) expect(headers.traceparent).toBeUndefined();
    expect(await gateway.stop()).toBe(0);
    expect(gateway.output()).not.toContain('tracing on');
  });

  it('a bad OTEL_TRACES_SAMPLER and bad OTEL_EXPORTER_OTLP_HEADERS stop startup, each named, the secret not shown', async () => {
    const child = spawnInGroup(process.execPath, ['server/dist/main.js'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_TRACES_SAMPLER: 'parentbased_sometimes',
        OTEL_EXPORTER_OTLP_HEADERS: `x-otlp-key:${OTLP_KEY}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output).toContain('ERR_GATEWAY_CONFIG_INVALID');
    expect(output).toMatch(/OTEL_TRACES_SAMPLER: expected one of always_on \| .*, got "parentbased_sometimes"/);
    expect(output).toMatch(/OTEL_EXPORTER_OTLP_HEADERS: .*value not shown: it is a secret/);
    expect(output).not.toContain(OTLP_KEY);
  });
});

const REVIEW_ADDED =
  'subscription { reviewAdded(productId: "product-4") { rating author { name } product { name price } } }';

describe('tracing a subscription over graphql-ws', () => {
  it("runs each event's entity fetches (users, products) inside its gateway.subscription.event span", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const reviewsUrl = subgraphs.reviews.url;
      const gateway = await startGateway('fastify', {
        ...subgraphEnv(),
        // The event source is reached over graphql-ws: straight, since the recording proxies forward plain HTTP only.
        SUBGRAPH_REVIEWS_URL: reviewsUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'always_on',
      });
      const before = subgraphHeaders().length;
      const stream = openStream('ws', gateway.url, { query: REVIEW_ADDED });
      try {
        // No subscribe acknowledgement: warm-up reviews (rating 1) until one arrives, then the traced one (rating 5).
        await untilLive(reviewsUrl, [stream], 'product-4');
        await addReview(reviewsUrl, { productId: 'product-4', rating: 5, comment: 'traced', author: 'user-7' });
        const traced = (event: (typeof stream.events)[number]) =>
          (event.data as { reviewAdded?: { rating: number } } | undefined)?.reviewAdded?.rating === 5;
        while (!stream.events.some(traced)) await stream.take(stream.events.length + 1);
        const product = getProduct('product-4');
        expect(stream.events.at(-1)).toEqual({
          data: {
            reviewAdded: {
              rating: 5,
              author: { name: getUser('user-7')?.name },
              product: { name: product?.name, price: product?.price },
            },
          },
        });
      } finally {
        stream.stop();
      }
      const sent = subgraphHeaders().slice(before);
      expect(await gateway.stop()).toBe(0); // flushes the spans

      const spans = receiver.spans;
      const ids = new Map(spans.map((span) => [span.spanId, span]));
      const eventOf = (span: ReceivedSpan) => {
        let ancestor = ids.get(span.parentSpanId);
        while (ancestor && ancestor.name !== 'gateway.subscription.event') ancestor = ids.get(ancestor.parentSpanId);
        return ancestor;
      };
      const events = byName(spans, 'gateway.subscription.event');
      // One span per event delivered (the warm-ups and the traced one), none left open.
      expect(events).toHaveLength(stream.events.length);
      const fetches = byName(spans, 'gateway.fetch');
      for (const event of events) {
        const own = fetches.filter((fetch) => eventOf(fetch) === event);
        expect(own.map((fetch) => fetch.attributes.service).sort(), 'the fetches under one event').toEqual([
          'products',
          'users',
        ]);
        for (const fetch of own) {
          expect(fetch.traceId).toBe(event.traceId);
          expect(fetch.attributes['fedgw.subgraph.outcome']).toBe('ok');
        }
      }
      // Every fetch of the subscription ran inside an event.
      expect(fetches.length).toBe(2 * events.length);
      // Each event is a trace of its own, linked to the subscribe's (where it was planned).
      const planned = byName(spans, 'gateway.plan').map((span) => span.traceId);
      for (const event of events) {
        expect(event.parentSpanId).toBe('');
        expect(event.links).toHaveLength(1);
        expect(planned).toContain(event.links?.[0]?.traceId);
        expect(ids.get(event.links?.[0]?.spanId ?? '')?.traceId).toBe(event.links?.[0]?.traceId);
      }
      expect(fetches.every((fetch) => eventOf(fetch) !== undefined)).toBe(true);
      // And each entity request carried the context of its client span, a child of its fetch.
      expect(sent).toHaveLength(fetches.length);
      const fetchIds = new Set(fetches.map((fetch) => fetch.spanId));
      const clients = clientSpans(spans).filter((client) => fetchIds.has(client.parentSpanId));
      expect(clients).toHaveLength(fetches.length);
      const clientIds = new Set(clients.map((client) => `${client.traceId}-${client.spanId}`));
      for (const headers of sent) {
        const [, traceId, parentId, flags] = String(headers.traceparent).split('-');
        expect(clientIds.has(`${traceId}-${parentId}`), "parent is the client span of an event's fetch").toBe(true);
        expect(flags).toBe('01');
      }
    } finally {
      await receiver.close();
    }
  });
});

interface RecordingProxy {
  readonly url: string;
  close(): Promise<void>;
}

/** Records the headers of each request into `headers`, then forwards it to the real subgraph. */
async function startRecordingProxy(target: string, headers: IncomingHttpHeaders[]): Promise<RecordingProxy> {
  const server = createServer((incoming, response) => {
    headers.push(incoming.headers);
    const upstream = request(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.writeHead(502).end());
    incoming.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
