import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  closedPortUrl,
  postGraphQL,
  send,
  startTestHttpServer,
  subgraphUrlEnv,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape } from '../contract/metrics-scrape.js';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * A batch (BATCHING_MAX_OPERATIONS) used to get more out of the gateway than its operations
 * would get one by one: past the cost and rate limits, or with one operation lending its
 * standing (a trusted document, an unspent response budget) to the others. Real HTTP to the
 * compiled gateway over the real subgraphs. On the project's supergraph
 * `topProducts(first: n) { id reviews { id rating } }` costs 26 per product, so n = 50 is
 * exactly MAX_COST=1300 and n = 51 is over it.
 */
const MAX_OPERATIONS = 5;
const MAX_COST = 1300;
const AT_MAX_COST = 'query AtMax { topProducts(first: 50) { id reviews { id rating } } }';
const OVER_MAX_COST = 'query OverMax { topProducts(first: 51) { id reviews { id rating } } }';

const subgraphs = subgraphsForFile();

type Answer = { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };

async function postBatch(url: string, operations: readonly Record<string, unknown>[]) {
  const result = await send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(operations),
  });
  const answers = result.status === 200 ? (JSON.parse(result.text) as Answer[]) : [];
  return { ...result, answers };
}

const codes = (answer: Answer | undefined) => (answer?.errors ?? []).map((error) => error.extensions?.code);

describe('a batch of operations at the maximum cost is charged in full, operation by operation', () => {
  const RATE_LIMIT_MAX = 10 * MAX_COST;
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphUrlEnv(subgraphs()),
    BATCHING_MAX_OPERATIONS: String(MAX_OPERATIONS),
    MAX_COST: String(MAX_COST),
    GATEWAY_PLUGINS: 'rate-limit',
    RATE_LIMIT_COST: 'estimated',
    RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    RATE_LIMIT_WINDOW: '5m',
  }));

  /** What the window has left, read from a cost-1 request (which itself takes 1). */
  const remainingAfterProbe = async () =>
    Number((await postGraphQL(gateway().url, { query: '{ __typename }' })).headers.get('ratelimit-remaining'));

  it(`${MAX_OPERATIONS + 1} operations: refused whole, before any is estimated or charged`, async () => {
    const batch = Array.from({ length: MAX_OPERATIONS + 1 }, () => ({ query: AT_MAX_COST }));
    const refused = await postBatch(gateway().url, batch);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BATCH_TOO_LARGE');
    expect(await remainingAfterProbe()).toBe(RATE_LIMIT_MAX - 1);
  });

  it(`${MAX_OPERATIONS} at MAX_COST: each passes demand control alone, and the window is charged ${MAX_OPERATIONS} × ${MAX_COST}`, async () => {
    const before = await remainingAfterProbe();
    const result = await postBatch(
      gateway().url,
      Array.from({ length: MAX_OPERATIONS }, () => ({ query: AT_MAX_COST })),
    );
    expect(result.status).toBe(200);
    expect(result.answers).toHaveLength(MAX_OPERATIONS);
    for (const answer of result.answers) {
      expect(answer.errors).toBeUndefined();
      expect((answer.data as { topProducts: unknown[] }).topProducts).toHaveLength(50);
    }
    // The probe after takes 1 more.
    expect(await remainingAfterProbe()).toBe(before - MAX_OPERATIONS * MAX_COST - 1);
  });

  it('one operation over MAX_COST is refused alone; its neighbours are served', async () => {
    const result = await postBatch(gateway().url, [{ query: '{ __typename }' }, { query: OVER_MAX_COST }]);
    expect(result.status).toBe(200);
    expect(result.answers[0]).toEqual({ data: { __typename: 'Query' } });
    expect(codes(result.answers[1])).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(result.answers[1]?.errors?.[0]?.extensions?.estimatedCost).toBe(51 * 26);
  });

  it('the batch as a whole runs into the rate limit: the operations past it are refused, in order', async () => {
    const remaining = await remainingAfterProbe();
    // Each operation is first charged 1, then the rest of its cost once estimated, in the batch's
    // order: with room for `fits` of them, the following ones are REQUEST_RATE_LIMITED.
    const fits = Math.floor((remaining - MAX_OPERATIONS) / (MAX_COST - 1));
    expect(fits).toBeLessThan(MAX_OPERATIONS);
    const result = await postBatch(
      gateway().url,
      Array.from({ length: MAX_OPERATIONS }, () => ({ query: AT_MAX_COST })),
    );
    expect(result.status).toBe(200);
    expect(result.answers.map(codes)).toEqual([
      ...Array.from({ length: fits }, () => []),
      ...Array.from({ length: MAX_OPERATIONS - fits }, () => ['REQUEST_RATE_LIMITED']),
    ]);
  });
});

describe('one operation of a batch lends nothing to the others', () => {
  const GET_USER = 'query GetUser { user(id: "user-1") { id name } }';
  // About 3 kB of products: over MAX_RESPONSE_BYTES (1 kB) on its own.
  const LARGE = 'query Large { topProducts(first: 40) { id name price } }';
  // Under it alone; three of them together are over it.
  const MEDIUM = 'query Medium { topProducts(first: 7) { id name price } }';
  let manifestPath = '';
  // Registered before the gateway's hook, so the manifest exists when it starts.
  beforeAll(async () => {
    manifestPath = join(await mkdtemp(join(tmpdir(), 'batching-')), 'manifest.json');
    await writeFile(manifestPath, JSON.stringify({ 'get-user-v1': GET_USER }));
  });
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphUrlEnv(subgraphs()),
    BATCHING_MAX_OPERATIONS: String(MAX_OPERATIONS),
    METRICS_ENABLED: 'true',
    TRUSTED_DOCUMENTS: manifestPath,
    TRUSTED_DOCUMENTS_MODE: 'allow-ids',
    MAX_RESPONSE_BYTES: '1kb',
  }));

  it("a trusted document's standing: junk names beside it never take a metrics label", async () => {
    for (let i = 0; i < 30; i++) {
      const result = await postBatch(gateway().url, [
        { documentId: 'get-user-v1' },
        { query: `query Junk${i} { __typename }` },
      ]);
      expect(result.answers.map(codes)).toEqual([[], []]);
    }
    const metrics = await scrape(`${gateway().origin}/metrics`);
    const names = new Set(
      metrics.samples('gateway_graphql_requests_total').map((sample) => sample.labels.operation_name as string),
    );
    expect([...names].filter((name) => !name.startsWith('__'))).toEqual(['GetUser']);
    expect(metrics.value('gateway_graphql_requests_total', { operation_name: 'GetUser', outcome: 'ok' })).toBe(30);
  });

  it("MAX_RESPONSE_BYTES holds per operation: a large answer does not spend its neighbours' budget", async () => {
    const medium = await postGraphQL(gateway().url, { query: MEDIUM });
    expect(medium.body.errors).toBeUndefined();
    const result = await postBatch(gateway().url, [{ query: LARGE }, ...Array(3).fill({ query: MEDIUM })]);
    expect(result.status).toBe(200);
    expect(codes(result.answers[0])).toEqual(['RESPONSE_TOO_LARGE']);
    for (const answer of result.answers.slice(1)) expect(answer).toEqual(medium.body);
  });
});

describe("one operation's cache-control is not the batch's", () => {
  const CACHEABLE = '{ topProducts(first: 1) { name } }';
  let products: TestHttpServer | undefined;
  let unreachable = '';
  // A products subgraph whose answers may be cached for a minute, and which answers after the
  // other operation of the batch is done.
  beforeAll(async () => {
    unreachable = await closedPortUrl();
    products = await startTestHttpServer((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' });
        response.end(JSON.stringify({ data: { topProducts: [{ name: 'Chair' }] } }));
      }, 100);
    });
  });
  afterAll(async () => {
    await products?.close();
  });
  const gateway = gatewayForBlock('fastify', () => ({
    SUBGRAPH_PRODUCTS_URL: products?.url ?? '',
    SUBGRAPH_USERS_URL: unreachable,
    SUBGRAPH_REVIEWS_URL: unreachable,
    BATCHING_MAX_OPERATIONS: String(MAX_OPERATIONS),
    GATEWAY_PLUGINS: 'header-rules',
    GATEWAY_HEADER_RULES: JSON.stringify({ response: [{ name: 'cache-control' }] }),
  }));

  it("a batch answer is no-store, though header rules pass a cacheable operation its subgraph's max-age", async () => {
    const alone = await postGraphQL(gateway().url, { query: CACHEABLE });
    expect(alone.headers.get('cache-control')).toBe('public, max-age=60');
    // `{ __typename }` asks no subgraph: its answer (not cacheable) is done first.
    const result = await postBatch(gateway().url, [{ query: CACHEABLE }, { query: '{ __typename }' }]);
    expect(result.answers).toEqual([{ data: { topProducts: [{ name: 'Chair' }] } }, { data: { __typename: 'Query' } }]);
    expect(result.headers.get('cache-control')).toBe('no-store');
  });
});
