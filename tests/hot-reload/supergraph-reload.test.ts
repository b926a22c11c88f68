import { readFileSync } from 'node:fs';
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPLEX_QUERY, expectedComplex, getProduct } from '@fedgw/subgraphs';
import {
  eventually,
  postGraphQL,
  type RunningGateway,
  type RunningSubgraph,
  SUPERGRAPH_PATH,
  type SubgraphName,
  spawnGateway,
  startGateway,
  startSubgraphs,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * Hot reload through the compiled gateway (`node server/dist/main.js`) in front of the
 * real subgraphs: the supergraph changes while 8 requests are always in flight.
 */
const SUPERGRAPH = readFileSync(SUPERGRAPH_PATH, 'utf8');
const DEFAULT_PORTS: Record<SubgraphName, number> = { users: 4001, products: 4002, reviews: 4003 };
const IN_STOCK = '  inStock: Boolean! @join__field(graph: PRODUCTS)\n';
const REJECTED = 'new supergraph rejected; the previous one keeps serving';

let subgraphs: Record<SubgraphName, RunningSubgraph>;
const gateways: RunningGateway[] = [];
const servers: TestHttpServer[] = [];

beforeAll(async () => {
  subgraphs = await startSubgraphs();
});
afterAll(async () => {
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * The checked-in supergraph pointed at the running subgraphs. `version` is added to every
 * subgraph URL, so a swap between versions also replaces every subgraph connection pool.
 */
function supergraph(options: { inStock: boolean; version: number }): string {
  let text = SUPERGRAPH;
  expect(text).toContain(IN_STOCK);
  if (!options.inStock) text = text.replace(IN_STOCK, '');
  for (const [name, port] of Object.entries(DEFAULT_PORTS)) {
    const from = `url: "http://127.0.0.1:${port}/graphql"`;
    expect(text).toContain(from);
    text = text.replace(from, `url: "${subgraphs[name as SubgraphName].url}?v=${options.version}"`);
  }
  return text;
}

/** `Product.inStock`: absent from the first supergraph, present in the second. */
async function inStock(gateway: { url: string }) {
  return postGraphQL(gateway.url, { query: '{ product(id: "product-1") { id inStock } }' });
}
const IN_STOCK_ANSWER = { data: { product: { id: 'product-1', inStock: getProduct('product-1')?.inStock } } };

/** `concurrency` clients each sending COMPLEX_QUERY (four subgraph hops) back to back, checking every answer. */
function load(url: string, concurrency = 8) {
  let running = true;
  let sent = 0;
  let ok = 0;
  const failures: string[] = [];
  const client = async () => {
    while (running) {
      const userId = `user-${(sent++ % 50) + 1}`;
      try {
        const result = await postGraphQL(url, { query: COMPLEX_QUERY, variables: { userId } });
        if (result.status === 200 && JSON.stringify(result.body) === JSON.stringify({ data: expectedComplex(userId) }))
          ok++;
        else failures.push(`${result.status} ${result.text.slice(0, 300)}`);
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const clients = Array.from({ length: concurrency }, client);
  return {
    failures,
    answered: () => ok + failures.length,
    /** Resolves once `count` more answers arrived: the load really ran across what happened meanwhile. */
    async more(count: number) {
      const target = ok + failures.length + count;
      await eventually(() => expect(ok + failures.length).toBeGreaterThanOrEqual(target), 20_000);
    },
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}

const warnings = (gateway: RunningGateway) => gateway.logLines().filter((line) => line.msg === REJECTED);

describe('supergraph hot reload (compiled gateway, real subgraphs)', () => {
  it('file: swaps under load with no failed request, serves the new field, rejects an invalid file and keeps the old one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reload-e2e-'));
    const path = join(dir, 'supergraph.graphql');
    // Written whole and renamed, as a deploy tool (or the kubelet's symlink swap) does.
    const write = async (text: string) => {
      await writeFile(`${path}.tmp`, text);
      await rename(`${path}.tmp`, path);
    };
    await write(supergraph({ inStock: false, version: 1 }));
    const gateway = await startGateway('fastify', { SUPERGRAPH_PATH: path, SUPERGRAPH_POLL_INTERVAL_MS: '100' });
    gateways.push(gateway);
    const before = await inStock(gateway);
    expect(before.status).toBe(400);
    expect(before.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

    const traffic = load(gateway.url);
    try {
      await traffic.more(40);
      await write(supergraph({ inStock: true, version: 2 }));
      await eventually(async () => expect((await inStock(gateway)).body).toEqual(IN_STOCK_ANSWER));
      await traffic.more(40);

      await write('type Query { secretField: String }');
      await eventually(() => expect(warnings(gateway)).toHaveLength(1));
      await traffic.more(40);
    } finally {
      await traffic.stop();
    }
    expect(traffic.failures).toEqual([]);
    expect(traffic.answered()).toBeGreaterThanOrEqual(120);

    expect(warnings(gateway)[0]).toMatchObject({ level: 40, source: 'file', reason: expect.any(String) });
    expect(gateway.output()).not.toContain('secretField');
    expect((await inStock(gateway)).body).toEqual(IN_STOCK_ANSWER);
    expect((await fetch(`${gateway.origin}/ready`)).status).toBe(200);
  });

  it('url: polls with If-None-Match, applies a new ETag, keeps serving through errors, never logs the URL', async () => {
    const document = { text: supergraph({ inStock: false, version: 1 }), etag: '"v1"' };
    let fullAnswers = 0;
    const server = await startTestHttpServer((request, response) => {
      if (request.headers['if-none-match'] === document.etag) return void response.writeHead(304).end();
      fullAnswers++;
      response.writeHead(200, { 'content-type': 'text/plain', etag: document.etag }).end(document.text);
    });
    servers.push(server);
    const conditional = (etag: string) => server.requests.filter((r) => r.headers['if-none-match'] === etag).length;
    const gateway = await spawnGateway('express', {
      SUPERGRAPH_URL: `${server.url.replace('/graphql', '/supergraph.graphql')}?token=s3cr3t`,
      SUPERGRAPH_POLL_INTERVAL_MS: '100',
    });
    gateways.push(gateway);

    await eventually(() => expect(conditional('"v1"')).toBeGreaterThanOrEqual(3)); // answered 304
    expect((await inStock(gateway)).status).toBe(400);

    Object.assign(document, { text: supergraph({ inStock: true, version: 2 }), etag: '"v2"' });
    await eventually(async () => expect((await inStock(gateway)).body).toEqual(IN_STOCK_ANSWER));
    await eventually(() => expect(conditional('"v2"')).toBeGreaterThanOrEqual(3));
    expect(fullAnswers).toBe(2); // the startup fetch and the one that got v2; every other poll was a 304

    server.respondWith((_request, response) => response.writeHead(503).end());
    await eventually(() => expect(warnings(gateway)).toHaveLength(1));
    expect(warnings(gateway)[0]).toMatchObject({ source: 'url', reason: 'unreadable: HTTP 503' });
    expect((await inStock(gateway)).body).toEqual(IN_STOCK_ANSWER);
    expect((await fetch(`${gateway.origin}/ready`)).status).toBe(200);
    expect(gateway.output()).not.toContain('s3cr3t');
  });
});
