import type { ServerResponse } from 'node:http';
import {
  closedPortUrl,
  eventually,
  MOUNTS,
  postGraphQL,
  type RunningGateway,
  startGateway,
  startTestHttpServer,
  subgraphUrlEnv,
  type TestHttpServer,
  writeEndlessBody,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape } from '../contract/metrics-scrape.js';
import { subgraphsForFile } from '../support/lifecycle.js';

// Class: a hostile shadow (SHADOW_URL). One that is slow, huge, down or lying must never change
// a client's answer or add to its latency: the shadow is sent once the answer is written, so
// each case shows the client answered while the shadow is still held, or failing, and the
// outcome counted in gateway_shadow_total. Also: what is never mirrored (mutations), what never
// leaves (identity headers), and the concurrency cap (dropped, never queued).

const QUERY = 'query Product { product(id: "product-7") { id name } }';
const METRIC = 'gateway_shadow_total';
const subgraphs = subgraphsForFile();
let expected: unknown;

beforeAll(async () => {
  // The answer the subgraph gives is the client's answer (one subgraph, one field set).
  expected = (await postGraphQL(subgraphs().products.url, { query: QUERY })).body;
  expect(expected).toMatchObject({ data: { product: { id: 'product-7' } } });
});

/** A shadow the test controls: it holds every request until `release`, or answers with `respondWith`. */
function holding(server: TestHttpServer): { held: ServerResponse[]; release(body: unknown): void } {
  const held: ServerResponse[] = [];
  server.respondWith((_request, response) => void held.push(response));
  return {
    held,
    release(body) {
      for (const response of held.splice(0)) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      }
    },
  };
}

const outcomes = async (gateway: RunningGateway, outcome: string) =>
  (await scrape(`${gateway.origin}/metrics`)).value(METRIC, { target: 'url', outcome });

async function askAndCheck(gateway: RunningGateway, headers: Record<string, string> = {}): Promise<void> {
  const result = await postGraphQL(gateway.url, { query: QUERY }, headers);
  expect(result.status).toBe(200);
  expect(result.body).toEqual(expected);
}

describe.each(MOUNTS)('a hostile shadow, on %s', (mount) => {
  let shadow: TestHttpServer;
  let slowShadow: TestHttpServer;
  let gateway: RunningGateway;
  let impatient: RunningGateway;
  let shadowDown: RunningGateway;
  const env = (url: string, more: Record<string, string> = {}) => ({
    ...subgraphUrlEnv(subgraphs()),
    METRICS_ENABLED: 'true',
    SHADOW_URL: url,
    SHADOW_SAMPLE: '1',
    ...more,
  });
  beforeAll(async () => {
    [shadow, slowShadow] = await Promise.all([startTestHttpServer(), startTestHttpServer()]);
    [gateway, impatient, shadowDown] = await Promise.all([
      startGateway(
        mount,
        env(shadow.url, {
          SHADOW_MAX_CONCURRENCY: '1',
          SHADOW_MAX_RESPONSE_BYTES: '64kb',
          SHADOW_TIMEOUT_MS: '60s',
          SHADOW_FORWARD_HEADERS: 'x-tenant',
          GATEWAY_API_KEYS: 'app:0123456789abcdef0123',
          GATEWAY_PLUGINS: 'api-key',
        }),
      ),
      startGateway(mount, env(slowShadow.url, { SHADOW_TIMEOUT_MS: '1s' })),
      startGateway(mount, env(await closedPortUrl())),
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const running of [gateway, impatient, shadowDown]) if (running) expect(await running.stop()).toBe(0);
    await Promise.all([shadow?.close(), slowShadow?.close()]);
  });
  const key = { 'x-api-key': '0123456789abcdef0123' };

  it('slow: the client is answered while the shadow holds the mirrored query; one more is dropped, not queued', async () => {
    const gate = holding(shadow);
    const before = shadow.requests.length;
    await askAndCheck(gateway, key);
    // poll: the shadow is sent once the answer was written
    await eventually(() => expect(gate.held).toHaveLength(1));
    const dropped = await outcomes(gateway, 'dropped');
    // The cap (1) is taken: the next query's shadow is dropped, its client answered all the same.
    await askAndCheck(gateway, key);
    // poll: counted after that answer was written
    await eventually(async () => expect(await outcomes(gateway, 'dropped')).toBe(dropped + 1));
    expect(gate.held).toHaveLength(1);
    const same = await outcomes(gateway, 'same');
    gate.release(expected);
    // poll: compared once the shadow answers
    await eventually(async () => expect(await outcomes(gateway, 'same')).toBe(same + 1));
    expect(shadow.requests.length - before).toBe(1);
  });

  it('slow past SHADOW_TIMEOUT_MS: given up and counted, the client long answered', async () => {
    // A first shadow answered at once, so the next one's fetch is not the process's first (loading undici).
    slowShadow.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(expected));
    });
    await askAndCheck(impatient);
    // poll: the first shadow is compared
    await eventually(async () => expect(await outcomes(impatient, 'same')).toBe(1));
    const gate = holding(slowShadow);
    await askAndCheck(impatient);
    // poll: the shadow is sent once the answer was written
    await eventually(() => expect(gate.held).toHaveLength(1));
    // poll: the shadow's own timeout (SHADOW_TIMEOUT_MS) ends it, while the test still holds its answer
    await eventually(async () => expect(await outcomes(impatient, 'shadow_error')).toBe(1));
    expect(gate.held).toHaveLength(1);
    gate.release(expected);
  });

  it('huge: an endless answer stops being read at SHADOW_MAX_RESPONSE_BYTES', async () => {
    let reply: ServerResponse | undefined;
    shadow.respondWith((_request, response) => {
      reply = response;
      writeEndlessBody(response, '{"data":{"product":{"name":"', '"}}}', 1024 ** 3);
    });
    const failed = await outcomes(gateway, 'shadow_error');
    await askAndCheck(gateway, key);
    // poll: the shadow is sent, read to 64 KiB, then given up
    await eventually(async () => expect(await outcomes(gateway, 'shadow_error')).toBe(failed + 1));
    // poll: the gateway closed the connection, so the endless writer stopped
    await eventually(() => expect(reply?.destroyed).toBe(true));
  });

  it('down: a refused connection is counted, the client answered', async () => {
    await askAndCheck(shadowDown);
    // poll: the shadow is sent once the answer was written
    await eventually(async () => expect(await outcomes(shadowDown, 'shadow_error')).toBe(1));
  });

  it('lying: other data is a difference logged by path without values; not JSON is an error', async () => {
    shadow.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data: { product: { id: 'product-7', name: 'A secret lie' } } }));
    });
    const differs = await outcomes(gateway, 'differs');
    await askAndCheck(gateway, key);
    const line = await gateway.untilLog({ msg: 'shadow answer differs' });
    expect(line.shadow).toEqual({
      target: 'url',
      operationName: 'Product',
      paths: ['product.name'],
      count: 1,
      run: expect.any(String),
    });
    expect(gateway.output()).not.toContain('A secret lie');
    expect(await outcomes(gateway, 'differs')).toBe(differs + 1);

    shadow.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"data": not json');
    });
    const failed = await outcomes(gateway, 'shadow_error');
    await askAndCheck(gateway, key);
    // poll: the shadow is sent once the answer was written
    await eventually(async () => expect(await outcomes(gateway, 'shadow_error')).toBe(failed + 1));
  });

  it('never mirrors a mutation or a query over SSE, and sends no identity header it was not told to', async () => {
    shadow.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(expected));
    });
    const before = shadow.requests.length;
    const mutation = 'mutation Add { addReview(productId: "product-7", rating: 5, comment: "ok") { id } }';
    const identity = {
      ...key,
      authorization: 'Bearer not-for-the-shadow',
      cookie: 'session=not-for-the-shadow',
      'x-user-id': 'user-1',
      'x-tenant': 'acme',
    };
    await postGraphQL(gateway.url, { query: mutation }, identity);
    // A query over SSE: its answer is written after the gateway's onResponse, so it is not mirrored.
    const overSse = await fetch(gateway.url, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(overSse.headers.get('content-type')).toContain('text/event-stream');
    expect(await overSse.text()).toContain('product-7');
    await askAndCheck(gateway, identity);
    // poll: the query's shadow is sent once its answer was written; the mutation's never is
    await eventually(() => expect(shadow.requests.length).toBe(before + 1));
    const [mirrored] = shadow.requests.slice(before);
    expect(JSON.parse(mirrored?.body ?? '')).toEqual({ query: QUERY, operationName: undefined });
    expect(mirrored?.headers['x-tenant']).toBe('acme');
    // Marked, so a gateway receiving it (itself, or one mirroring back) never mirrors it again.
    expect(mirrored?.headers['x-gateway-shadow']).toBe('1');
    await askAndCheck(gateway, { ...key, 'x-gateway-shadow': '1' });
    await askAndCheck(gateway, key);
    // poll: the second query's shadow is sent once its answer was written; the marked one's never is
    await eventually(() => expect(shadow.requests.length).toBe(before + 2));
    expect(shadow.requests.slice(before + 1).map((request) => request.headers['x-gateway-shadow'])).toEqual(['1']);
    for (const name of ['authorization', 'cookie', 'x-api-key', 'x-user-id']) {
      expect(mirrored?.headers[name]).toBeUndefined();
    }
  });
});
