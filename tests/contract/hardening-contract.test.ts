import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import {
  eventually,
  MOUNTS,
  postGraphQL,
  type RunningGateway,
  type RunningSubgraph,
  startGateway,
  startSubgraph,
  writeEndlessBody,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What one hostile request or one broken subgraph can do to a gateway, on every mount:
 * nothing that outlives the request or reaches other clients. Users and products are the
 * real subgraph processes; reviews is a broken one that answers every request with an
 * endless (100 MB) body and records the headers it is sent.
 */
const MB = 1024 * 1024;
const SMALL_ANSWER = { query: '{ user(id: "user-1") { id name } }' };
// Each level of `orders → product → reviews → author` multiplies the answer (5 × 25 items declared).
const NESTED_LISTS =
  '{ user(id: "user-1") { orders { product { reviews { author { orders { product { reviews { author { orders { product { reviews { author { name } } } } } } } } } } } } } }';

let users: RunningSubgraph;
let products: RunningSubgraph;
/** Points a gateway at the real users and products subgraphs and the broken reviews one. */
const subgraphEnv = () => ({
  SUBGRAPH_USERS_URL: users.url,
  SUBGRAPH_PRODUCTS_URL: products.url,
  SUBGRAPH_REVIEWS_URL: hugeReviews.url,
});
let hugeReviews: { url: string; requests: IncomingHttpHeaders[]; close(): Promise<void> };

beforeAll(async () => {
  [users, products, hugeReviews] = await Promise.all([
    startSubgraph('users'),
    startSubgraph('products'),
    startEndlessSubgraph(),
  ]);
});

afterAll(async () => {
  await Promise.all([users?.stop(), products?.stop(), hugeReviews?.close()]);
});

describe.each(MOUNTS)('hardening on %s', (mount) => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(mount, {
      ...subgraphEnv(),
      // One socket per subgraph: a poisoned connection would be the next request's.
      SUBGRAPH_POOL_CONNECTIONS: '1',
      SUBGRAPH_TIMEOUT_MS: '10000',
      MAX_RESPONSE_BYTES: '4kb',
      REQUEST_TIMEOUT_MS: '1500',
      HEADERS_TIMEOUT_MS: '1000',
      GATEWAY_PLUGINS: 'header-rules',
      GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ propagate: { matching: '^x-' } }] }),
    });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('refuses a small query with nested lists by its estimated cost (400, coded, with the estimate)', async () => {
    const result = await postGraphQL(gateway.url, { query: NESTED_LISTS });
    expect(result.status).toBe(400);
    const error = result.body.errors?.[0];
    expect(error?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    expect(error?.extensions?.maxCost).toBe(25_000);
    expect(Number(error?.extensions?.estimatedCost)).toBeGreaterThan(25_000);
    expect(result.body.data).toBeUndefined();
  });

  it('a subgraph that answers a 1.5 MB variable early does not poison the connection the next query uses', async () => {
    const huge = await postGraphQL(gateway.url, {
      query: 'query Big($id: ID!) { user(id: $id) { id } }',
      variables: { id: 'x'.repeat(1.5 * MB) },
    });
    const next = await postGraphQL(gateway.url, SMALL_ANSWER);

    expect(huge.status).toBe(200);
    expect(next.body).toEqual({ data: { user: { id: 'user-1', name: expect.any(String) } } });
  });

  it('answers RESPONSE_TOO_LARGE (data null) when the answer would pass MAX_RESPONSE_BYTES', async () => {
    const big = await postGraphQL(gateway.url, { query: '{ users(first: 60) { edges { node { id name email } } } }' });
    const small = await postGraphQL(gateway.url, SMALL_ANSWER);

    expect(big.body).toEqual({
      data: null,
      errors: [
        {
          message: 'The response is larger than the limit of 4096 bytes; ask for less (paginate).',
          extensions: { code: 'RESPONSE_TOO_LARGE', maxResponseBytes: 4096 },
        },
      ],
    });
    expect(small.body.errors).toBeUndefined();
  });

  it("subgraphs get the gateway's request id, not a client's junk one forwarded by a header rule", async () => {
    const before = hugeReviews.requests.length;
    const result = await postGraphQL(
      gateway.url,
      { query: '{ user(id: "user-3") { id reviews { id } } }' },
      { 'x-request-id': 'a b"c{}<>', 'x-tenant': 'acme' },
    );
    const sent = hugeReviews.requests.slice(before);

    const gatewayId = result.headers.get('x-request-id');
    expect(gatewayId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.map((headers) => headers['x-request-id'])).toEqual([gatewayId]);
    expect(sent[0]?.['x-tenant']).toBe('acme');
  });
  it.each([
    [
      'an unknown operationName',
      { query: 'query A { __typename }', operationName: 'B' },
      'OPERATION_RESOLUTION_FAILURE',
    ],
    [
      'two operations and no name',
      { query: 'query A { __typename } query B { __typename }' },
      'OPERATION_RESOLUTION_FAILURE',
    ],
    ['a subscription over HTTP', { query: 'subscription { reviewAdded { id } }' }, 'SUBSCRIPTION_NOT_SUPPORTED'],
  ])('answers %s with 400 and a code, logged at debug, never as a server error', async (_name, payload, code) => {
    const result = await postGraphQL(gateway.url, payload);
    expect(result.status).toBe(400);
    expect(result.body.errors?.map((error) => error.extensions?.code)).toEqual([code]);
    expect(errorLines(gateway, result.headers.get('x-request-id'))).toEqual([]);
  });

  it('answers an operationName that is not valid UTF-8 with 400', async () => {
    const body = Buffer.concat([
      Buffer.from('{"query":"query A { __typename }","operationName":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const result = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(response.status).toBe(400);
    expect(result.errors?.[0]?.extensions?.code).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(errorLines(gateway, response.headers.get('x-request-id'))).toEqual([]);
  });

  it.each([
    ['HTTP/1.0 without a Host', 'POST /graphql HTTP/1.0\r\n'],
    ['a malformed Host', 'POST /graphql HTTP/1.1\r\nHost: [\r\nconnection: close\r\n'],
  ])(
    'answers %s without a 500 (400 on Fastify, whose integration needs the Host), logged with its status',
    async (_name, head) => {
      const body = '{"query":"{ __typename }"}';
      const request = `${head}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
      const answer = await rawAnswer(new URL(gateway.url), request);
      const status = Number(answer.match(/^HTTP\/1\.[01] (\d{3})/)?.[1]);
      if (mount.endsWith('fastify')) {
        expect(status).toBe(400);
        const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
          errors?: { message?: string; extensions?: { code?: string } }[];
        };
        expect(json.errors?.[0]).toEqual({
          message: 'Missing or malformed Host header.',
          extensions: { code: 'BAD_REQUEST' },
        });
      } else expect([200, 400]).toContain(status);
      // Node itself answers some malformed requests before any framework sees them (no request id, no line).
      const requestId = answer.match(/^x-request-id: (\S+)$/im)?.[1];
      if (mount.endsWith('fastify') || requestId !== undefined) {
        await expect
          .poll(() =>
            gateway.logLines().find((line) => line.requestId === requestId && line.msg === 'request completed'),
          )
          .toMatchObject({ status });
      }
    },
  );

  it.each([
    ['its body', 'POST /graphql HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n'],
    ['its headers', 'POST /graphql HTTP/1.1\r\nHost: x\r\n'],
  ])('cuts off a client that drips %s past REQUEST_TIMEOUT_MS / HEADERS_TIMEOUT_MS', async (_name, start) => {
    const { status, closedAfterMs } = await drip(new URL(gateway.url), start);
    // The client would drip for 10 s; the server ends it soon after its 1.5 s limit.
    expect(closedAfterMs).toBeLessThan(6_000);
    expect([408, undefined]).toContain(status);
  });

  describe('with the default size limits', () => {
    let defaults: RunningGateway;
    beforeAll(async () => {
      defaults = await startGateway(mount, subgraphEnv());
    });
    afterAll(async () => {
      expect(await defaults?.stop()).toBe(0);
    });

    it('a 100 MB subgraph body is cut at SUBGRAPH_MAX_RESPONSE_BYTES: a coded error on its fields, memory flat, logged', async () => {
      const baseline = rssMb(defaults);
      const results = [];
      for (let i = 0; i < 3; i++) {
        results.push(await postGraphQL(defaults.url, { query: '{ user(id: "user-2") { id reviews { id } } }' }));
      }
      const after = rssMb(defaults);

      for (const result of results) {
        expect(result.status).toBe(200);
        expect(result.body.data).toEqual({ user: { id: 'user-2', reviews: null } });
        expect(result.body.errors).toEqual([
          {
            message: `Subgraph "reviews" answered with more than ${5 * MB} bytes.`,
            path: ['user', 'reviews'],
            extensions: { code: 'SUBGRAPH_RESPONSE_TOO_LARGE' },
          },
        ]);
      }
      // Three 100 MB bodies relayed would add hundreds of MB; each read stops at 5 MB.
      expect(after - baseline).toBeLessThan(80);
      const requestId = results[0]?.headers.get('x-request-id');
      const logged = () =>
        defaults.logLines().find((line) => line.msg === 'subgraph fetch failed' && line.requestId === requestId);
      // The log line travels on the gateway's stdout pipe, the answer on its socket: either may come first here.
      await eventually(() =>
        expect(logged()).toMatchObject({ level: 40, subgraph: 'reviews', code: 'SUBGRAPH_RESPONSE_TOO_LARGE' }),
      );
      expect(JSON.stringify(logged())).not.toContain(new URL(hugeReviews.url).port);
    });
  });
});

describe('the process environment', () => {
  it('starts beside the variables Kubernetes injects for a Service named gateway', async () => {
    const gateway = await startGateway('nest-fastify', {
      ...subgraphEnv(),
      GATEWAY_SERVICE_HOST: '10.0.0.12',
      GATEWAY_SERVICE_PORT: '4000',
      GATEWAY_PORT: 'tcp://10.0.0.12:4000',
      GATEWAY_PORT_4000_TCP: 'tcp://10.0.0.12:4000',
      GATEWAY_PORT_4000_TCP_PROTO: 'tcp',
      GATEWAY_PORT_4000_TCP_PORT: '4000',
      GATEWAY_PORT_4000_TCP_ADDR: '10.0.0.12',
    });
    try {
      expect((await postGraphQL(gateway.url, SMALL_ANSWER)).status).toBe(200);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });
});

describe.each(MOUNTS)('startup failure on %s', (mount) => {
  it.each([
    ['a missing supergraph', '/nonexistent/supergraph.graphql', 'ENOENT'],
    ['a directory as supergraph', 'gateway', 'EISDIR'],
  ])('%s: exits 1 and logs the error code and its cause', async (_name, path, cause) => {
    const failure = await startGateway(mount, { SUPERGRAPH_PATH: path }).then(
      async (gateway) => {
        await gateway.stop();
        throw new Error('the gateway started');
      },
      (error: Error) => error.message,
    );
    expect(failure).toContain('exited with 1 before it was ready');
    const fatal = failure
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.level === 60);
    expect(fatal).toMatchObject({ code: 'ERR_GATEWAY_SUPERGRAPH_UNREADABLE', causeCode: cause });
  });
});

/** Error-level (50+) log lines of one request. */
function errorLines(gateway: RunningGateway, requestId: string | null): Record<string, unknown>[] {
  return gateway.logLines().filter((line) => line.requestId === requestId && Number(line.level) >= 50);
}

/** Sends `start`, then one byte every 200 ms for 10 s; reports when the server closed the socket and its status. */
async function drip(url: URL, start: string): Promise<{ status: number | undefined; closedAfterMs: number }> {
  const startedAt = Date.now();
  const socket = connect(Number(url.port), url.hostname);
  let answer = '';
  socket.on('data', (chunk) => {
    answer += String(chunk);
  });
  socket.on('error', () => {}); // a reset is a cut-off too
  socket.write(start);
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(start.includes('content-length') ? 'x' : 'x-drip: y\r\n');
  }, 200);
  // Not events.once: it rejects on 'error', and a reset is an expected way to be cut off.
  const closed = new Promise((resolve) => socket.once('close', resolve));
  const gaveUp = new Promise((resolve) => setTimeout(resolve, 10_000)); // deadline: gives up on the cut, which fails the test
  await Promise.race([closed, gaveUp]);
  clearInterval(timer);
  socket.destroy();
  const status = answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1];
  return { status: status === undefined ? undefined : Number(status), closedAfterMs: Date.now() - startedAt };
}

/** Sends raw bytes over TCP and returns the whole answer (status line, headers, body). */
async function rawAnswer(url: URL, request: string): Promise<string> {
  const socket = connect(Number(url.port), url.hostname);
  socket.end(request);
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  return answer;
}

/** Resident memory of the gateway process, in MB (Linux /proc). */
function rssMb(gateway: RunningGateway): number {
  const status = readFileSync(`/proc/${gateway.child.pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1]) / 1024;
}

/** A broken subgraph: every answer is a 100 MB chunked body, sent only as fast as it is read. */
async function startEndlessSubgraph() {
  const requests: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.headers);
    req.resume();
    writeEndlessBody(res, '{"data":{"_entities":[{"reviews":[{"id":"', '"}]}]}}', 100 * MB);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
