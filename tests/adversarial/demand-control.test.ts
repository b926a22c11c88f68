import { postGraphQL, type RunningGateway, startGateway, subgraphUrlEnv } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * A client hiding a list's size where the estimate used not to look: a variable's
 * default, a fragment, an alias, a directive's variable. Real HTTP to the compiled gateway
 * over the real subgraphs. On the project's supergraph `topProducts { reviews { id } }`
 * costs 26 per product (the product and 25 assumed reviews), so under MAX_COST=2000 a
 * page of 76 products or more is refused and 60 is not.
 */
const MAX_COST = 2000;
const PAGE = 'topProducts(first: $n) { id reviews { id rating } }';

const subgraphs = subgraphsForFile();

async function expectRefused(url: string, query: string, variables?: Record<string, unknown>, cost?: number) {
  const result = await postGraphQL(url, { query, ...(variables && { variables }) });
  expect(result.status, result.text.slice(0, 300)).toBe(400);
  const error = result.body.errors?.[0];
  expect(error?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
  expect(error?.extensions?.maxCost).toBe(MAX_COST);
  if (cost !== undefined) expect(error?.extensions?.estimatedCost).toBe(cost);
  expect(result.body.data).toBeUndefined();
}

async function expectServed(url: string, query: string, variables?: Record<string, unknown>) {
  const result = await postGraphQL(url, { query, ...(variables && { variables }) });
  expect(result.status, result.text.slice(0, 300)).toBe(200);
  expect(result.body.errors).toBeUndefined();
  return result.body.data as Record<string, unknown>;
}

describe('demand control (MAX_COST) counts what the operation will really run with', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway('fastify', { ...subgraphUrlEnv(subgraphs()), MAX_COST: String(MAX_COST) });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it("a variable's default: refused as if the client had sent the value", async () => {
    await expectRefused(gateway.url, `query Q($n: Int = 100) { ${PAGE} }`, undefined, 100 * 26);
    // The same operation with a value that fits is served, and the value wins over the default.
    const data = await expectServed(gateway.url, `query Q($n: Int = 100) { ${PAGE} }`, { n: 3 });
    expect(data.topProducts).toHaveLength(3);
  });

  it("the schema's argument default counts when neither argument nor variable gives one", async () => {
    // topProducts(first: Int = 5): 5 × (1 + 25 × (1 + 1 + 15)) = 2130.
    const nested = 'reviews { author { reviews { id } } }';
    await expectRefused(gateway.url, `{ topProducts { ${nested} } }`, undefined, 2130);
    await expectRefused(gateway.url, `query Q($n: Int) { topProducts(first: $n) { ${nested} } }`, undefined, 2130);
    await expectServed(gateway.url, `{ topProducts(first: 4) { ${nested} } }`);
  });

  it('a size behind a named fragment or an inline fragment', async () => {
    await expectRefused(gateway.url, `query Q($n: Int = 100) { ...Page } fragment Page on Query { ${PAGE} }`);
    await expectRefused(gateway.url, `query Q($n: Int = 100) { ... on Query { ${PAGE} } }`);
    await expectRefused(
      gateway.url,
      `query Q($n: Int = 100) { ...Outer } fragment Outer on Query { ...Inner } fragment Inner on Query { ${PAGE} }`,
    );
  });

  it('aliases: each copy of a list is counted', async () => {
    await expectServed(gateway.url, `query Q($n: Int = 60) { ${PAGE} }`);
    await expectRefused(gateway.url, `query Q($n: Int = 60) { a: ${PAGE} b: ${PAGE} }`, undefined, 2 * 60 * 26);
  });

  it('@include/@skip are decided by the variables (and their defaults), as execution decides them', async () => {
    const include = `query Q($big: Boolean = true, $n: Int = 100) { ${PAGE.replace('first: $n)', 'first: $n) @include(if: $big)')} }`;
    await expectRefused(gateway.url, include);
    expect(await expectServed(gateway.url, include, { big: false })).toEqual({});
    const skip = `query Q($small: Boolean = false, $n: Int = 100) { ... @skip(if: $small) { ${PAGE} } }`;
    await expectRefused(gateway.url, skip);
    expect(await expectServed(gateway.url, skip, { small: true })).toEqual({});
  });

  it('a null slicing argument is counted at least as the resolver default it falls back to', async () => {
    const data = await expectServed(gateway.url, 'query Q($n: Int) { topProducts(first: $n) { id } }', { n: null });
    // The products subgraph answers 5 for a null `first`; the estimate (10) is not below that.
    expect((data.topProducts as unknown[]).length).toBeLessThanOrEqual(10);
  });
});

describe('RATE_LIMIT_COST=estimated charges what the operation will really run with', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway('fastify', {
      ...subgraphUrlEnv(subgraphs()),
      GATEWAY_PLUGINS: 'rate-limit',
      RATE_LIMIT_COST: 'estimated',
      RATE_LIMIT_MAX: '250',
      RATE_LIMIT_WINDOW: '10m',
    });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it("a variable's default (through a fragment, under an @include whose variable defaults to true) is charged in full", async () => {
    // 100 products, each id only: 100 per request, so the third request is over 250.
    const query =
      'query Q($n: Int = 100, $on: Boolean = true) { ...P } fragment P on Query { topProducts(first: $n) @include(if: $on) { id } }';
    for (let i = 0; i < 2; i++) {
      const result = await postGraphQL(gateway.url, { query });
      expect(result.status).toBe(200);
      expect((result.body.data?.topProducts as unknown[] | undefined)?.length).toBe(100);
    }
    const third = await postGraphQL(gateway.url, { query });
    expect(third.status).toBe(429);
    expect(third.body.errors?.[0]?.extensions?.code).toBe('REQUEST_RATE_LIMITED');
  });
});

describe('a request refused for its cost is charged what refusing it cost, not its estimate (RATE_LIMIT_KEY=global)', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway('fastify', {
      ...subgraphUrlEnv(subgraphs()),
      MAX_COST: String(MAX_COST),
      GATEWAY_PLUGINS: 'rate-limit',
      RATE_LIMIT_COST: 'estimated',
      RATE_LIMIT_KEY: 'global',
      RATE_LIMIT_MAX: '5000',
      RATE_LIMIT_WINDOW: '10m',
    });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('one refused request with an astronomical estimate does not spend the shared budget of every client', async () => {
    // Nested lists: an estimate in the billions, far over MAX_COST and over the whole window's budget.
    const nested = 'topProducts(first: 1000) { reviews { author { reviews { product { reviews { id } } } } } }';
    const refused = await postGraphQL(gateway.url, { query: `{ ${nested} }` });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    expect(Number(refused.body.errors?.[0]?.extensions?.estimatedCost)).toBeGreaterThan(5000);
    // Another client's ordinary request still fits in the window; the refusal cost 1.
    const next = await postGraphQL(gateway.url, { query: '{ topProducts(first: 2) { id } }' });
    expect(next.status, next.text.slice(0, 200)).toBe(200);
    expect(Number(next.headers.get('ratelimit-remaining'))).toBe(5000 - 1 - 2);
  });
});
