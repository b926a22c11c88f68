import {
  closedPortUrl,
  postGraphQL,
  type RunningGateway,
  startGateway,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Class: deduplication hands one caller what was meant for another. Callers that share a
// subgraph fetch or a whole execution get the answer and the headers about it, never the
// first caller's cookies.

const QUERY = { query: '{ topProducts(first: 1) { name } }' };
let products: TestHttpServer;
let issued = 0;
let gateway: RunningGateway | undefined;

beforeAll(async () => {
  // Slow enough that two requests sent together overlap; every answer sets a fresh session cookie.
  products = await startTestHttpServer((_request, response) => {
    const session = `session=${++issued}; HttpOnly`;
    setTimeout(() => {
      const body = JSON.stringify({ data: { topProducts: [{ name: 'Chair' }] } });
      response.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'max-age=60',
        'set-cookie': session,
      });
      response.end(body);
    }, 300);
  });
});
afterAll(async () => {
  await products?.close();
});
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function start(env: Record<string, string>): Promise<RunningGateway> {
  gateway = await startGateway('fastify', {
    SUBGRAPH_PRODUCTS_URL: products.url,
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    GATEWAY_PLUGINS: 'header-rules',
    GATEWAY_HEADER_RULES: JSON.stringify({ response: [{ name: 'set-cookie' }, { name: 'cache-control' }] }),
    ...env,
  });
  return gateway;
}

const cases: Array<[string, Record<string, string>, Array<Record<string, string>>]> = [
  [
    'subgraph dedup, two callers with different cookies',
    { SUBGRAPH_DEDUPLICATE: 'true' },
    [{ cookie: 'me=alice' }, { cookie: 'me=bob' }],
  ],
  ['inbound dedup, two anonymous callers from one address', { INBOUND_DEDUPLICATE: 'true' }, [{}, {}]],
];

describe('deduplicated callers and response headers', () => {
  it.each(cases)(
    '%s: one fetch, the cache header for both, the cookie only for the caller it was set for',
    async (_name, env, headers) => {
      const { url } = await start(env);
      const before = products.requests.length;
      const results = await Promise.all(headers.map((each) => postGraphQL(url, QUERY, each)));
      expect(products.requests.length - before, 'the two requests did not share a fetch').toBe(1);
      for (const result of results) {
        expect(result.body.data).toEqual({ topProducts: [{ name: 'Chair' }] });
        expect(result.headers.get('cache-control')).toContain('max-age=60');
      }
      const cookies = results.map((result) => result.headers.getSetCookie());
      expect(cookies.filter((set) => set.length > 0)).toHaveLength(1);
    },
  );
});
