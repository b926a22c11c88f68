import {
  closedPortUrl,
  postGraphQL,
  type RunningGateway,
  startGateway,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Class: one client changes shared state that serves every client. A subgraph's circuit
// breaker and retry budget are shared by all callers; a refusal the client caused (a header or
// credential it sent, forwarded by a header rule) must not count against the subgraph's health
// nor be retried, and headers too large to forward are refused before any subgraph is asked.

const QUERY = { query: '{ topProducts(first: 1) { name } }' };
const HEALTHY = { data: { topProducts: [{ name: 'Chair' }] } };
/** What a proxy in front of the subgraph answers a request it refuses: not a GraphQL answer. */
const REFUSALS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  413: 'Too Large',
  431: 'Too Large',
};

let products: TestHttpServer;
let gateway: RunningGateway | undefined;

beforeAll(async () => {
  // The products subgraph behind a proxy: requests carrying `x-refuse: <status>` are refused with
  // that status and an HTML page, as nginx does with an oversized header; others are answered.
  products = await startTestHttpServer((request, response) => {
    const status = Number(request.headers['x-refuse']);
    if (REFUSALS[status]) {
      response.writeHead(status, { 'content-type': 'text/html' });
      response.end(`<html><body><h1>${status} ${REFUSALS[status]}</h1></body></html>`);
      return;
    }
    const body = JSON.stringify(HEALTHY);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
afterAll(async () => {
  await products?.close();
});
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function start(env: Record<string, string> = {}): Promise<RunningGateway> {
  gateway = await startGateway('fastify', {
    SUBGRAPH_PRODUCTS_URL: products.url,
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    GATEWAY_PLUGINS: 'header-rules',
    GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ propagate: { matching: '^x-' } }] }),
    // The breaker's defaults: open at a 50% failure rate over at least 20 requests in 10 s.
    SUBGRAPH_CIRCUIT_MIN_REQUESTS: '20',
    SUBGRAPH_RETRIES: '2',
    ...env,
  });
  return gateway;
}

describe("a subgraph's circuit breaker and retries, against refusals one client causes", () => {
  it.each(Object.keys(REFUSALS).map(Number))(
    '%i refusals for one client: never retried, never open the breaker for the others',
    async (status) => {
      const { url } = await start();
      const before = products.requests.length;
      for (let i = 0; i < 30; i++) {
        const refused = await postGraphQL(url, QUERY, { 'x-refuse': String(status) });
        expect(refused.body.errors?.[0]?.extensions?.code).toBe('SUBREQUEST_HTTP_ERROR');
      }
      // One fetch each: a refusal is an answer, not a failure to retry.
      expect(products.requests.length - before).toBe(30);
      const other = await postGraphQL(url, QUERY);
      expect(other.body).toEqual(HEALTHY);
    },
  );

  it('5xx failures still open it (the breaker is not switched off)', async () => {
    const { url } = await start({ SUBGRAPH_RETRIES: '0' });
    products.respondWith((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      response.end('<h1>500</h1>');
    });
    try {
      for (let i = 0; i < 25; i++) await postGraphQL(url, QUERY);
      const after = await postGraphQL(url, QUERY);
      expect(after.body.errors?.[0]?.extensions?.code).toBe('SUBGRAPH_CIRCUIT_OPEN');
    } finally {
      products.respondWith((request, response) => {
        const body = JSON.stringify(HEALTHY);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(body);
        void request;
      });
    }
  });
});

describe('header rules: limits on what is forwarded (bytes), 431 before any subgraph', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['one value over 4 KB', { 'x-big': 'a'.repeat(4097) }],
    // On the wire, as a client sends UTF-8: 1,400 `€` are 4,200 bytes (what HTTP carries as latin1 text).
    [
      'one value of 1,400 three-byte characters (4,200 bytes)',
      { 'x-big': Buffer.from('€'.repeat(1400)).toString('latin1') },
    ],
    [
      'several values, each under 4 KB, over 8 KB together',
      { 'x-a': 'a'.repeat(3000), 'x-b': 'b'.repeat(3000), 'x-c': 'c'.repeat(3000) },
    ],
  ];

  it.each(cases)('%s: 431 REQUEST_HEADER_FIELDS_TOO_LARGE, no subgraph asked', async (_name, headers) => {
    const { url } = await start();
    const before = products.requests.length;
    const result = await postGraphQL(url, QUERY, headers);
    expect(result.status).toBe(431);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');
    expect(products.requests.length).toBe(before);
  });

  it('forwards headers within the limits, and the limits are settings', async () => {
    const { url } = await start({
      GATEWAY_HEADER_RULES_MAX_VALUE_BYTES: '5kb',
      GATEWAY_HEADER_RULES_MAX_TOTAL_BYTES: '6kb',
    });
    const within = await postGraphQL(url, QUERY, { 'x-big': 'a'.repeat(5000) });
    expect(within.status).toBe(200);
    expect(products.requests.at(-1)?.headers['x-big']).toHaveLength(5000);
    expect((await postGraphQL(url, QUERY, { 'x-big': 'a'.repeat(5000), 'x-more': 'b'.repeat(1200) })).status).toBe(431);
  });

  it('a header no rule forwards is not limited by them', async () => {
    const { url } = await start({
      GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ propagate: { named: 'x-tenant' } }] }),
    });
    expect((await postGraphQL(url, QUERY, { 'x-unforwarded': 'a'.repeat(6000) })).status).toBe(200);
  });
});
