import { eventually, freePort, MOUNTS, postGraphQL, subgraphUrlEnv } from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';
import { parseMetrics } from './metrics-scrape.js';

/**
 * ENTITY_CACHE=memory over real HTTP on every mount, against the real subgraphs (products send
 * `public, max-age=60`, reviews `public, max-age=5`, users `private, max-age=30`). What a
 * subgraph was asked is read from the gateway's own metrics: its fetches per subgraph, and the
 * cache's hits and misses per subgraph and type.
 */
const SECRET = 'entity-cache-contract-secret-long-enough-0123456789';

const TOKEN = 'entity-cache-operator-token';

const subgraphs = subgraphsForFile();
const metricsPorts: number[] = [];
beforeAll(async () => {
  for (const _ of MOUNTS) metricsPorts.push(await freePort());
});

const bearer = async (subject: string) => ({
  authorization: `Bearer ${await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET))}`,
});

describe.each(MOUNTS)('entity cache on %s', (mount) => {
  const metricsOrigin = () => `http://127.0.0.1:${metricsPorts[MOUNTS.indexOf(mount)]}`;
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    ENTITY_CACHE: 'memory',
    ENTITY_CACHE_INVALIDATION_TOKEN: TOKEN,
    METRICS_ENABLED: 'true',
    METRICS_PORT: String(metricsPorts[MOUNTS.indexOf(mount)]),
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    JWT_CLAIM_HEADERS: 'sub:x-user-id',
    GATEWAY_LOG_LEVEL: 'debug',
  }));

  const metrics = async () => {
    const response = await fetch(`${metricsOrigin()}/metrics`);
    return parseMetrics(await response.text());
  };
  const fetches = async (subgraph: string) =>
    (await metrics()).value('gateway_subgraph_fetch_duration_seconds_count', { subgraph });
  const cache = async (subgraph: string, type: string, outcome: string) =>
    (await metrics()).value('gateway_entity_cache_total', { subgraph, type, outcome });

  it('answers a root query field again without asking the subgraph, the same answer', async () => {
    const query = { query: '{ topProducts(first: 3) { id name price } }' };
    const first = await postGraphQL(gateway().url, query);
    const asked = await fetches('products');
    const second = await postGraphQL(gateway().url, query);

    expect(first.body.data).toBeDefined();
    expect(second.body).toEqual(first.body);
    expect(await fetches('products')).toBe(asked);
    // Other arguments are another entry: the subgraph is asked.
    await postGraphQL(gateway().url, { query: '{ topProducts(first: 4) { id name price } }' });
    expect(await fetches('products')).toBe(asked + 1);
  });

  it("puts the request's hit ratio in its log line at debug", async () => {
    const query = { query: '{ topProducts(first: 2) { id reviews { id } } }' };
    await postGraphQL(gateway().url, query);
    const requestId = `hit-ratio-${mount}`;
    await postGraphQL(gateway().url, query, { 'x-request-id': requestId });

    await eventually(() => {
      const line = gateway()
        .logLines()
        .find((entry) => entry.msg === 'request completed' && entry.requestId === requestId);
      // One root fetch and two entities, all served from the cache.
      expect(line?.entityCache).toEqual({ hits: 3, misses: 0, hitRatio: 1 });
    });
  });

  it('asks only for the entities it does not hold, and merges them in their places', async () => {
    const query = (first: number) => ({
      query: `{ users(first: ${first}) { edges { node { id reviews { author { id } } } } } }`,
    });
    await postGraphQL(gateway().url, query(2));
    const hitsBefore = await cache('reviews', 'User', 'hit');
    const missesBefore = await cache('reviews', 'User', 'miss');

    const result = await postGraphQL(gateway().url, query(5));

    expect(await cache('reviews', 'User', 'hit')).toBe(hitsBefore + 2);
    expect(await cache('reviews', 'User', 'miss')).toBe(missesBefore + 3);
    const nodes = (
      result.body.data as { users: { edges: { node: { id: string; reviews: { author: { id: string } }[] } }[] } }
    ).users.edges;
    expect(nodes).toHaveLength(5);
    // Each user's reviews are that user's: a merge out of order would hand them to another.
    for (const { node } of nodes) {
      expect(node.reviews.length).toBeGreaterThan(0);
      for (const review of node.reviews) expect(review.author.id).toBe(node.id);
    }
  });

  it("keeps a private answer per identity: another caller never gets it, an anonymous one's is never kept", async () => {
    const me = { query: '{ me { id name } }' };
    const first = await postGraphQL(gateway().url, me, await bearer('user-7'));
    const hits = await cache('users', 'Query', 'hit');
    const again = await postGraphQL(gateway().url, me, await bearer('user-7'));
    const other = await postGraphQL(gateway().url, me, await bearer('user-8'));
    const anonymous = await postGraphQL(gateway().url, me);

    expect(first.body.data).toMatchObject({ me: { id: 'user-7' } });
    expect(again.body).toEqual(first.body);
    expect(await cache('users', 'Query', 'hit')).toBe(hits + 1);
    expect(other.body.data).toMatchObject({ me: { id: 'user-8' } });
    expect(anonymous.body.data).toEqual({ me: null });
  });

  it('drops what addReview changed: the next read shows the new review at once', async () => {
    const reviews = { query: '{ product(id: "product-3") { id reviews { id comment } } }' };
    await postGraphQL(gateway().url, reviews);
    const invalidations = await cache('reviews', 'Product', 'invalidation');
    const comment = `fresh review on ${mount}`;

    const added = await postGraphQL(
      gateway().url,
      { query: `mutation { addReview(productId: "product-3", rating: 5, comment: "${comment}") { id } }` },
      await bearer('user-3'),
    );
    const after = await postGraphQL(gateway().url, reviews);

    expect(added.body.errors).toBeUndefined();
    expect(await cache('reviews', 'Product', 'invalidation')).toBeGreaterThan(invalidations);
    const comments = (after.body.data as { product: { reviews: { comment: string }[] } }).product.reviews.map(
      (review) => review.comment,
    );
    expect(comments).toContain(comment);
  });

  it('invalidates on the metrics listener for the token holder only, never on the public port', async () => {
    const query = { query: '{ product(id: "product-5") { id name } }' };
    await postGraphQL(gateway().url, query);
    const invalidate = (body: unknown, token?: string, origin = metricsOrigin()) =>
      fetch(`${origin}/entity-cache/invalidate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
    const item = { kind: 'type', subgraph: 'products', type: 'Query' };

    expect((await invalidate([item], TOKEN, gateway().origin)).status).toBe(404);
    expect((await invalidate([item])).status).toBe(401);
    expect((await invalidate([item], 'wrong-token')).status).toBe(401);
    expect((await invalidate([{ kind: 'type', subgraph: 'products' }], TOKEN)).status).toBe(400);
    const asked = await fetches('products');
    await postGraphQL(gateway().url, query);
    expect(await fetches('products')).toBe(asked); // still kept: the refused calls dropped nothing

    const done = await invalidate([item], TOKEN);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { invalidated: number }).invalidated).toBeGreaterThan(0);
    await postGraphQL(gateway().url, query);
    expect(await fetches('products')).toBe(asked + 1);
  });
});
