import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  eventually,
  MOUNTS,
  type ProxiedSubgraph,
  postGraphQL,
  proxySubgraph,
  ROOT,
  type RunningGateway,
  type RunningSubgraph,
  SUPERGRAPH_PATH,
  type SubgraphName,
  startGateway,
  startSubgraph,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape } from '../contract/metrics-scrape.js';
import { gatewayForBlock } from '../support/lifecycle.js';

/**
 * Shadow traffic on every mount (docs/shadow-traffic.md). The gateway serves the demo supergraph
 * and mirrors every query (SHADOW_SAMPLE=1) to two candidates:
 * - SHADOW_SUPERGRAPH: the demo with `Product.reviewsUrl`'s override complete (moved from products
 *   to reviews for every request), run in-process against the same subgraphs. Both subgraphs build
 *   the same URL, so its answers are the same: the move is safe, and reviews receiving one request
 *   per mirrored query shows the candidate's plan ran.
 * - SHADOW_URL: a second gateway whose products subgraph sits behind a proxy that renames every
 *   product (one resolver changed): its answers differ at `product.name`, and only there.
 * The client (and the shadow gateway, through SHADOW_FORWARD_HEADERS) turn `percent(25)` off with
 * the fixture plugin's header, so the primary asks products alone.
 */
const QUERY = 'query ProductPage { product(id: "product-7") { id name reviewsUrl } }';
const LABELS_OFF = { 'x-override-labels': 'percent(25)=off' };
const MIRRORED = 4; // the difference is logged at its 1st, 2nd and 4th occurrence
const METRIC = 'gateway_shadow_total';

// Composition of the demo with `@override(from: "products")` (no label) writes exactly this line.
const LABELLED =
  'reviewsUrl: String! @join__field(graph: PRODUCTS, overrideLabel: "percent(25)") @join__field(graph: REVIEWS, override: "products", overrideLabel: "percent(25)")';
const MOVED = 'reviewsUrl: String! @join__field(graph: REVIEWS, override: "products")';

let subgraphs: Record<SubgraphName, RunningSubgraph>;
let renamingProducts: ProxiedSubgraph;
let shadowGateway: RunningGateway;
let answer: unknown;
const folder = mkdtempSync(join(tmpdir(), 'fedgw-shadow-'));
const candidate = join(folder, 'candidate.graphql');
const configFile = join(folder, 'gateway.json');

beforeAll(async () => {
  const demo = readFileSync(SUPERGRAPH_PATH, 'utf8');
  expect(demo).toContain(LABELLED);
  writeFileSync(candidate, demo.replace(LABELLED, MOVED));
  writeFileSync(
    configFile,
    JSON.stringify({ plugins: [{ module: `${ROOT}tests/contract/fixtures/override-labels-from-header.mjs` }] }),
  );
  const names = ['users', 'products', 'reviews'] as const;
  const started = await Promise.all(
    names.map((name) => startSubgraph(name, { SUBGRAPH_COUNT_HEADER: 'x-counted-by-nobody' })),
  );
  subgraphs = Object.fromEntries(names.map((name, i) => [name, started[i]])) as typeof subgraphs;
  renamingProducts = await proxySubgraph(() => subgraphs.products.url, {
    rewrite: (text) => text.replaceAll('"name":"', '"name":"Renamed '),
  });
  shadowGateway = await startGateway('fastify', {
    ...subgraphUrlEnv({ ...subgraphs, products: renamingProducts }),
    GATEWAY_CONFIG_FILE: configFile,
  });
  answer = {
    data: {
      product: {
        id: 'product-7',
        name: expect.not.stringContaining('Renamed'),
        reviewsUrl: 'https://shop.example/products/product-7/reviews',
      },
    },
  };
}, 60_000);
afterAll(async () => {
  if (shadowGateway) expect(await shadowGateway.stop()).toBe(0);
  await renamingProducts?.close();
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});

async function received(subgraph: RunningSubgraph): Promise<number> {
  const counts = (await (await fetch(`${new URL(subgraph.url).origin}/header-counts`)).json()) as { missing: number };
  return counts.missing;
}

/** `pnpm shadow:report`, fed the gateway's log on standard input. */
function report(log: string): string {
  return execFileSync(process.execPath, [`${ROOT}scripts/shadow-report.mjs`], { input: log, encoding: 'utf8' });
}

describe.each(MOUNTS)('shadow traffic on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs),
    GATEWAY_CONFIG_FILE: configFile,
    METRICS_ENABLED: 'true',
    SHADOW_URL: shadowGateway.url,
    SHADOW_SUPERGRAPH: candidate,
    SHADOW_SAMPLE: '1',
    SHADOW_FORWARD_HEADERS: 'x-override-labels',
  }));

  it('mirrors each query to both candidates; the report names the changed resolver, not the moved field', async () => {
    const reviewsBefore = await received(subgraphs.reviews);
    for (let i = 0; i < MIRRORED; i++) {
      const result = await postGraphQL(gateway().url, { query: QUERY }, LABELS_OFF);
      expect(result.body).toEqual(answer);
    }
    const counted = (target: string, outcome: string) => async () =>
      (await scrape(`${gateway().origin}/metrics`)).value(METRIC, { target, outcome });
    await eventually(async () => {
      // poll: the shadows run after each answer was written
      expect(await counted('url', 'differs')()).toBe(MIRRORED);
      expect(await counted('supergraph', 'same')()).toBe(MIRRORED);
    });
    for (const [target, outcome] of [
      ['url', 'same'],
      ['supergraph', 'differs'],
      ['url', 'shadow_error'],
      ['supergraph', 'shadow_error'],
      ['url', 'dropped'],
    ]) {
      expect(await counted(target as string, outcome as string)()).toBe(0);
    }
    // The primary asked products alone (label off); only the candidate's plan asks reviews.
    expect((await received(subgraphs.reviews)) - reviewsBefore).toBe(MIRRORED);
    await eventually(() => {
      // poll: the difference's log line is written after the metric counts it (lines are gathered into fewer writes)
      expect(report(gateway().output())).toBe(`operation ProductPage\n  url  product.name  ${MIRRORED}\n`);
    });
  });
});
