import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MOUNTS,
  postGraphQL,
  ROOT,
  type RunningSubgraph,
  type SubgraphName,
  startSubgraph,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayForBlock } from '../support/lifecycle.js';
import { scrape } from './metrics-scrape.js';

/**
 * Progressive override on every mount (docs/progressive-override.md): the demo supergraph moves
 * Product.reviewsUrl from products to reviews under `@override(label: "percent(25)")`. With the
 * label off the plan asks products alone, with it on products then reviews, so the requests
 * reviews receives are the requests the label was on for. Each subgraph counts what it receives
 * (SUBGRAPH_COUNT_HEADER names a header nobody sends: every request counts as `missing`).
 *
 * The gateways here are processes of their own and draw with Math.random: 2,000 requests at 25%
 * have a standard deviation of 19.4, so ±5 points (100 requests) is over 5 of them. The seeded,
 * exact counterpart is gateway/test/executor/progressive-override-gateway.test.ts.
 */
const QUERY = '{ product(id: "product-7") { id reviewsUrl } }';
const ANSWER = {
  data: { product: { id: 'product-7', reviewsUrl: 'https://shop.example/products/product-7/reviews' } },
};
const REQUESTS = 2000;
const MISSES = 'gateway_query_plan_cache_misses_total';

let subgraphs: Record<SubgraphName, RunningSubgraph>;
beforeAll(async () => {
  const names = ['users', 'products', 'reviews'] as const;
  const started = await Promise.all(
    names.map((name) => startSubgraph(name, { SUBGRAPH_COUNT_HEADER: 'x-counted-by-nobody' })),
  );
  subgraphs = Object.fromEntries(names.map((name, i) => [name, started[i]])) as typeof subgraphs;
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});

/** GATEWAY_CONFIG_FILE naming the fixture plugin module that reads `x-override-labels`. */
function configFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fedgw-override-')), 'gateway.json');
  writeFileSync(
    path,
    JSON.stringify({ plugins: [{ module: `${ROOT}tests/contract/fixtures/override-labels-from-header.mjs` }] }),
  );
  return path;
}

async function received(subgraph: RunningSubgraph): Promise<number> {
  const counts = (await (await fetch(`${new URL(subgraph.url).origin}/header-counts`)).json()) as { missing: number };
  return counts.missing;
}

describe.each(MOUNTS)('progressive override on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs),
    GATEWAY_CONFIG_FILE: configFile(),
    METRICS_ENABLED: 'true',
  }));

  async function split(count: number, headers: Record<string, string> = {}) {
    const { products, reviews } = subgraphs;
    const [reviewsBefore, productsBefore] = [await received(reviews), await received(products)];
    for (let i = 0; i < count; i++) {
      const result = await postGraphQL(gateway().url, { query: QUERY }, headers);
      expect(result.body).toEqual(ANSWER);
    }
    return {
      reviews: (await received(reviews)) - reviewsBefore,
      products: (await received(products)) - productsBefore,
    };
  }

  const misses = async () => (await scrape(`${gateway().origin}/metrics`)).value(MISSES);

  it(`sends percent(25) of ${REQUESTS} requests to the subgraph the field moves to, planning once per label set`, async () => {
    const before = await misses();
    const { reviews, products } = await split(REQUESTS);
    expect(products).toBe(REQUESTS);
    expect(Math.abs(reviews / REQUESTS - 0.25)).toBeLessThan(0.05);
    expect((await misses()) - before).toBe(2);
  }, 120_000);

  it('lets a plugin turn the label on or off, whatever the draw; labels the supergraph lacks add no plan', async () => {
    expect(await split(40, { 'x-override-labels': 'percent(25)=on' })).toEqual({ reviews: 40, products: 40 });
    expect(await split(40, { 'x-override-labels': 'percent(25)=off' })).toEqual({ reviews: 0, products: 40 });
    const before = await misses();
    await split(10, { 'x-override-labels': 'percent(25)=off,made-up=on,another-one=on' });
    expect(await misses()).toBe(before);
  }, 60_000);
});
