// The example plugin of docs/plugins.md (docs/examples/plugin/subgraph-maintenance.ts) against
// the real subgraphs over HTTP: it answers a subgraph's requests in its place (the subgraph
// is never asked) and refuses a supergraph that lacks a subgraph it names.
import { postGraphQL, type RunningSubgraph, startSubgraph, startSubgraphs } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphMaintenance } from '../../docs/examples/plugin/subgraph-maintenance.js';
import { type ServedGateway, serveGateway } from './helpers/serve-gateway.js';

let subgraphs: Awaited<ReturnType<typeof startSubgraphs>>;
/** A second reviews subgraph that counts the requests it gets, by request id. */
let countedReviews: RunningSubgraph;
const served: ServedGateway[] = [];

beforeAll(async () => {
  subgraphs = await startSubgraphs();
  countedReviews = await startSubgraph('reviews', { SUBGRAPH_COUNT_HEADER: 'x-request-id' });
}, 60_000);

afterAll(async () => {
  await Promise.all(served.map((gateway) => gateway.close()));
  await Promise.all([...Object.values(subgraphs ?? {}), countedReviews].map((subgraph) => subgraph?.stop()));
});

async function requestsTo(subgraph: RunningSubgraph): Promise<number> {
  const response = await fetch(subgraph.url.replace(/\/graphql$/, '/header-counts'));
  const { counts, missing } = (await response.json()) as { counts: Record<string, number>; missing: number };
  return Object.values(counts).reduce((sum, count) => sum + count, missing);
}

function urls(reviews: RunningSubgraph) {
  return {
    SUBGRAPH_USERS_URL: subgraphs.users.url,
    SUBGRAPH_PRODUCTS_URL: subgraphs.products.url,
    SUBGRAPH_REVIEWS_URL: reviews.url,
  };
}

const QUERY = '{ topProducts(first: 2) { name reviews { rating } } }';

describe('the example plugin: subgraph maintenance', () => {
  it('answers for the subgraph under maintenance: the rest of the operation runs, the subgraph is never asked', async () => {
    const maintenance = subgraphMaintenance({ subgraphs: ['reviews'] });
    const gateway = await serveGateway({ ...urls(countedReviews), MASK_ERRORS: 'true' }, { plugins: [maintenance] });
    served.push(gateway);

    const answer = await postGraphQL(gateway.url, { query: QUERY });
    expect(answer.status).toBe(200);
    const products = (answer.body.data as { topProducts: { name: string; reviews: unknown }[] }).topProducts;
    expect(products.map((product) => product.name)).toEqual([expect.any(String), expect.any(String)]);
    expect(products.every((product) => product.reviews === null)).toBe(true);
    expect(answer.body.errors?.[0]).toMatchObject({
      message: 'Subgraph "reviews" is under maintenance.',
      extensions: { code: 'SUBREQUEST_HTTP_ERROR' },
    });
    expect(maintenance.answered()).toBe(1);
    expect(await requestsTo(countedReviews)).toBe(0);
  });

  it('without the plugin the same query reaches the subgraph (the counter counts)', async () => {
    const gateway = await serveGateway(urls(countedReviews));
    served.push(gateway);
    const answer = await postGraphQL(gateway.url, { query: QUERY });
    expect(answer.body.errors).toBeUndefined();
    expect(await requestsTo(countedReviews)).toBe(1);
  });

  it('refuses a supergraph without the subgraph it names: the gateway does not start', async () => {
    const misspelled = subgraphMaintenance({ subgraphs: ['reveiws'] });
    await expect(serveGateway(urls(subgraphs.reviews), { plugins: [misspelled] })).rejects.toThrow(
      /plugin subgraph-maintenance refused it: no subgraph "reveiws"/,
    );
  });
});
