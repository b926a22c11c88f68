import { type RunningSubgraph, SUPERGRAPH_PATH, seededRandom, startSubgraph } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/compose/create-gateway.js';
import { parseConfig } from '../../src/config/parse.js';
import type { GatewayPlugin } from '../../src/contract/index.js';
import type { Gateway } from '../../src/gateway-core.js';
import { createLogger } from '../../src/logger.js';
import { captureLogger } from '../helpers/captured-logger.js';
import { requestScope } from '../plugins/helpers/scope.js';

/**
 * Progressive override through a whole gateway on the real subgraphs, with a seeded draw:
 * Product.reviewsUrl moves from products to reviews under `percent(25)`. With the label off, the
 * plan asks products alone; with it on, products then reviews (an entity fetch). Each subgraph
 * counts the requests it gets (SUBGRAPH_COUNT_HEADER names a header nobody sends: all count
 * as `missing`), so the split is read where the answers came from.
 */
const QUERY = '{ product(id: "product-7") { id reviewsUrl } }';
const ANSWER = {
  data: { product: { id: 'product-7', reviewsUrl: 'https://shop.example/products/product-7/reviews' } },
};
const REQUESTS = 2000;
const silent = createLogger({ log: { level: 'silent', pretty: false } });

let products: RunningSubgraph;
let reviews: RunningSubgraph;
let users: RunningSubgraph;
beforeAll(async () => {
  const counted = { SUBGRAPH_COUNT_HEADER: 'x-counted-by-nobody' };
  [users, products, reviews] = await Promise.all([
    startSubgraph('users', counted),
    startSubgraph('products', counted),
    startSubgraph('reviews', counted),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([users, products, reviews].map((subgraph) => subgraph?.stop()));
});

/** Requests the subgraph received so far. */
async function received(subgraph: RunningSubgraph): Promise<number> {
  const counts = (await (await fetch(`${new URL(subgraph.url).origin}/header-counts`)).json()) as { missing: number };
  return counts.missing;
}

/** Turns labels on or off from `x-override-labels: label=on,other=off`, as docs/progressive-override.md shows. */
const labelsFromHeader: GatewayPlugin = {
  name: 'labels-from-header',
  authenticate(scope) {
    const header = scope.headers['x-override-labels'];
    if (typeof header !== 'string') return undefined;
    const chosen = Object.fromEntries(header.split(',').map((part) => [part.split('=')[0], part.endsWith('=on')]));
    scope.overrideLabels = { ...scope.overrideLabels, ...chosen };
    return undefined;
  },
};

function gatewayWith(env: Record<string, string>, options: { random?: () => number; misses?: string[] } = {}) {
  const misses = options.misses;
  const observer: GatewayPlugin = {
    name: 'plan-cache-observer',
    onEvent(event) {
      if (event.type === 'query-plan-cache' && event.outcome === 'miss') misses?.push('miss');
    },
  };
  return createGateway(
    parseConfig({
      SUPERGRAPH_PATH,
      SUBGRAPH_USERS_URL: users.url,
      SUBGRAPH_PRODUCTS_URL: products.url,
      SUBGRAPH_REVIEWS_URL: reviews.url,
      ...env,
    }),
    {
      logger: silent,
      plugins: [labelsFromHeader, observer],
      ...(options.random && { overrideRandom: options.random }),
    },
  );
}

async function ask(gateway: Gateway, headers: Record<string, string> = {}) {
  const response = await gateway.server.executeOperation(
    { query: QUERY },
    { contextValue: await gateway.context(requestScope(headers)) },
  );
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  return response.body.singleResult;
}

/** Runs `count` requests; returns how many reached reviews and products. */
async function split(gateway: Gateway, count: number, headers: Record<string, string> = {}) {
  const [reviewsBefore, productsBefore] = [await received(reviews), await received(products)];
  for (let i = 0; i < count; i++) expect(await ask(gateway, headers)).toEqual(ANSWER);
  return { reviews: (await received(reviews)) - reviewsBefore, products: (await received(products)) - productsBefore };
}

describe('QUERY_PLAN_EXECUTOR=lean with a seeded draw', () => {
  let gateway: Gateway;
  const misses: string[] = [];
  beforeAll(async () => {
    gateway = gatewayWith({}, { random: seededRandom(2026), misses });
    await gateway.start();
  }, 30_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it(`sends percent(25) of ${REQUESTS} requests to the new subgraph (within ±5 points), caching one plan per label set`, async () => {
    const { reviews: moved, products: all } = await split(gateway, REQUESTS);
    expect(all).toBe(REQUESTS);
    // Seed 2026: 508 of 2,000 (25.4%).
    expect(Math.abs(moved / REQUESTS - 0.25)).toBeLessThan(0.05);
    // Two label sets ({} and {percent(25)}), so two plans for the one operation, however many requests.
    expect(misses).toHaveLength(2);
  }, 120_000);

  it('lets a plugin turn the label on or off for a request, whatever the draw', async () => {
    expect(await split(gateway, 50, { 'x-override-labels': 'percent(25)=on' })).toEqual({ reviews: 50, products: 50 });
    expect(await split(gateway, 50, { 'x-override-labels': 'percent(25)=off' })).toEqual({ reviews: 0, products: 50 });
    // A label the supergraph lacks is ignored: no plan of its own.
    const before = misses.length;
    await split(gateway, 20, { 'x-override-labels': 'percent(25)=off,made-up-label=on' });
    expect(misses.length).toBe(before);
  });
});

describe('QUERY_PLAN_EXECUTOR=apollo', () => {
  it('plans with every label off, whatever a plugin sets, and says so at load', async () => {
    const captured = captureLogger('warn');
    const gateway = createGateway(
      parseConfig({
        SUPERGRAPH_PATH,
        SUBGRAPH_USERS_URL: users.url,
        SUBGRAPH_PRODUCTS_URL: products.url,
        SUBGRAPH_REVIEWS_URL: reviews.url,
        QUERY_PLAN_EXECUTOR: 'apollo',
      }),
      { logger: captured.logger, plugins: [labelsFromHeader], overrideRandom: () => 0 },
    );
    await gateway.start();
    try {
      expect(await split(gateway, 20, { 'x-override-labels': 'percent(25)=on' })).toEqual({ reviews: 0, products: 20 });
      const warning = captured.lines.find((line) => line.setting === 'QUERY_PLAN_EXECUTOR');
      expect(warning).toMatchObject({ level: 40, labels: ['percent(25)'] });
    } finally {
      await gateway.stop();
    }
  }, 30_000);
});
