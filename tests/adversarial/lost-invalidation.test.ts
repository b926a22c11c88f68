import {
  available,
  eventually,
  type ProxiedSubgraph,
  postGraphQL,
  proxySubgraph,
  type RunningGateway,
  startGateway,
  startRedis,
  subgraphUrlEnv,
  type TestRedis,
  token,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMetrics } from '../contract/metrics-scrape.js';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * Class: an invalidation the gateway could not deliver is an answer served stale for the rest
 * of its TTL, on every replica. A review is added through replica A while the shared Redis is
 * cut off (stopped, then restarted from its append-only file so the old entries come back; or
 * frozen with SIGSTOP, then resumed): once Redis answers again, neither replica may serve the
 * product's old review list. And the demo's addReview drops the reviews subgraph's root entries
 * (`review(id:)`) as well as its entities. The reviews subgraph sits behind a proxy that keeps
 * its answers for 10 minutes (the demo's 5 s would hide a lost invalidation).
 */
const SECRET = 'lost-invalidation-adversarial-secret-long-enough-0123';
const subgraphs = subgraphsForFile();
const REDIS = available('redis-server', import.meta.url);

// The reviews subgraph's queries kept 10 minutes (its own answers say nothing); mutations stay no-store.
let reviews: ProxiedSubgraph;
beforeAll(async () => {
  reviews = await proxySubgraph(() => subgraphs().reviews.url, {
    cacheControl: (_headers, upstream) => (upstream === 'no-store' ? 'no-store' : 'public, max-age=600'),
  });
});
afterAll(async () => {
  await reviews?.close();
});

const bearer = async (subject: string) => ({
  authorization: `Bearer ${await token(new TextEncoder().encode(SECRET), { claims: { sub: subject } })}`,
});

const gatewayEnv = (extra: Record<string, string>) => ({
  ...subgraphUrlEnv(subgraphs()),
  SUBGRAPH_REVIEWS_URL: reviews.url,
  METRICS_ENABLED: 'true',
  GATEWAY_PLUGINS: 'jwt',
  JWT_SECRET: SECRET,
  JWT_ALGORITHMS: 'HS256',
  JWT_REQUIRED: 'false',
  JWT_CLAIM_HEADERS: 'sub:x-user-id',
  ...extra,
});

const metric = async (gateway: RunningGateway, name: string, labels: Record<string, string> = {}) =>
  parseMetrics(await (await fetch(new URL('/metrics', gateway.origin))).text()).value(name, labels);
const reviewHits = (gateway: RunningGateway) =>
  metric(gateway, 'gateway_entity_cache_total', { subgraph: 'reviews', type: 'Product', outcome: 'hit' });

const PRODUCT = { query: '{ product(id: "product-12") { id reviews { id comment } } }' };
const commentsOf = (body: { data?: unknown }) =>
  ((body.data as { product?: { reviews?: { comment: string }[] } } | undefined)?.product?.reviews ?? []).map(
    (review) => review.comment,
  );

async function addReview(gateway: RunningGateway, productId: string, comment: string): Promise<string> {
  const added = await postGraphQL(
    gateway.url,
    { query: `mutation { addReview(productId: "${productId}", rating: 5, comment: "${comment}") { id } }` },
    await bearer('user-12'),
  );
  expect(added.body.errors).toBeUndefined();
  return (added.body.data as { addReview: { id: string } }).addReview.id;
}

/** Asks `gateway` until one answer came from the cache (a hit on the reviews' Product entries) and shows `comment`. */
async function servedFromCacheWith(gateway: RunningGateway, comment: string): Promise<void> {
  await eventually(async () => {
    const hits = await reviewHits(gateway);
    const answer = await postGraphQL(gateway.url, PRODUCT);
    expect(await reviewHits(gateway)).toBeGreaterThan(hits);
    expect(commentsOf(answer.body)).toContain(comment);
  }, 15_000);
}

describe.skipIf(!REDIS)('an invalidation Redis could not take when it was asked for', () => {
  let redis: TestRedis | undefined;
  const replicas: RunningGateway[] = [];
  afterEach(async () => {
    await Promise.all(replicas.splice(0).map((replica) => replica.stop()));
    redis?.resume();
    await redis?.stop();
    redis = undefined;
  });

  const cuts = [
    {
      name: 'stopped, then restarted from its append-only file (the old entries come back)',
      cut: (store: TestRedis) => store.stop(),
      restore: (store: TestRedis) => store.restart(),
    },
    {
      name: 'frozen (SIGSTOP), then resumed',
      cut: async (store: TestRedis) => store.pause(),
      restore: async (store: TestRedis) => store.resume(),
    },
  ];

  it.each(cuts)(
    'Redis $name: the invalidation takes effect on every replica once Redis is back',
    async ({ cut, restore }) => {
      const store = await startRedis({ persist: true });
      redis = store;
      const env = gatewayEnv({ ENTITY_CACHE: 'redis', ENTITY_CACHE_REDIS_URL: store.url });
      replicas.push(...(await Promise.all([startGateway('fastify', env), startGateway('express', env)])));
      const [writer, reader] = replicas as [RunningGateway, RunningGateway];
      // Both replicas read the product's review list from Redis.
      for (const replica of [writer, reader]) {
        await eventually(async () => {
          await postGraphQL(replica.url, PRODUCT);
          expect(await reviewHits(replica)).toBeGreaterThan(0);
        });
      }

      await cut(store);
      const comment = `added while Redis was away ${Date.now()}`;
      await addReview(writer, 'product-12', comment);
      await restore(store);

      // Each replica reads from Redis again, and what it reads is the list with the new review.
      await servedFromCacheWith(reader, comment);
      await servedFromCacheWith(writer, comment);
      expect(
        await metric(writer, 'gateway_entity_cache_invalidations_total', { outcome: 'retried' }),
      ).toBeGreaterThanOrEqual(1);
      expect(await metric(writer, 'gateway_entity_cache_invalidations_pending')).toBe(0);
    },
  );
});

describe('root entries', () => {
  let gateway: RunningGateway | undefined;
  afterAll(async () => {
    if (gateway) expect(await gateway.stop()).toBe(0);
  });

  it('addReview drops the review(id:) entries: a review asked for before it existed is served once added', async () => {
    gateway = await startGateway('fastify', gatewayEnv({ ENTITY_CACHE: 'memory' }));
    const target = gateway;
    // The next id is one past the last one added.
    const last = await addReview(target, 'product-13', 'the one before');
    const next = `review-${Number(last.slice('review-'.length)) + 1}`;
    const byId = { query: `{ review(id: "${next}") { id comment } }` };
    const rootHits = () =>
      metric(target, 'gateway_entity_cache_total', { subgraph: 'reviews', type: 'Query', outcome: 'hit' });
    await postGraphQL(target.url, byId);
    const hits = await rootHits();
    expect((await postGraphQL(target.url, byId)).body.data).toEqual({ review: null });
    expect(await rootHits()).toBe(hits + 1);

    expect(await addReview(target, 'product-13', 'asked for before it existed')).toBe(next);
    expect((await postGraphQL(target.url, byId)).body.data).toEqual({
      review: { id: next, comment: 'asked for before it existed' },
    });
  });
});
