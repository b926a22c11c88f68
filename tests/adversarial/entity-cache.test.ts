import {
  available,
  eventually,
  MOUNTS,
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetrics } from '../contract/metrics-scrape.js';
import { type OtlpReceiver, startOtlpReceiver } from '../contract/otlp-receiver.js';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * Attacks on the entity cache (ENTITY_CACHE=memory), over real HTTP on every mount:
 * poisoning through forwarded headers, aliases, variables and `__typename`; one client filling
 * the cache to evict everyone else's entries; private answers across identities and across
 * inbound-deduplication joins. The users subgraph sits behind a proxy that marks every answer
 * `public, max-age=60`: a misconfigured subgraph whose `me` varies on the forwarded identity
 * header. Then ENTITY_CACHE=redis, shared by two gateways: garbage in Redis, Redis down or
 * frozen, an invalidation seen by the other replica. (Private answers and the invalidation
 * endpoint: entity-cache-contract.test.ts; a reload's schema hash: the plugin's own tests.)
 */
const SECRET = 'entity-cache-adversarial-secret-long-enough-0123456789';
const subgraphs = subgraphsForFile();

// The users subgraph's answers made cacheable: its own say nothing about caching.
let users: ProxiedSubgraph;
beforeAll(async () => {
  users = await proxySubgraph(() => subgraphs().users.url, { cacheControl: () => 'public, max-age=60' });
});
afterAll(async () => {
  await users?.close();
});

const bearer = async (subject: string) => ({
  authorization: `Bearer ${await token(new TextEncoder().encode(SECRET), { claims: { sub: subject } })}`,
});

describe.each(MOUNTS)('entity cache attacks on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_USERS_URL: users.url,
    ENTITY_CACHE: 'memory',
    ENTITY_CACHE_MAX_BYTES: '1mb',
    INBOUND_DEDUPLICATE: 'true',
    METRICS_ENABLED: 'true',
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    JWT_CLAIM_HEADERS: 'sub:x-user-id',
  }));
  const cache = async (subgraph: string, type: string, outcome: string) => {
    const text = await (await fetch(new URL('/metrics', gateway().origin))).text();
    return parseMetrics(text).value('gateway_entity_cache_total', { subgraph, type, outcome });
  };

  it('a forwarded header is part of the key: a "public" answer that varies on it is never served to another value', async () => {
    const me = { query: '{ me { id email } }' };
    const first = await postGraphQL(gateway().url, me, await bearer('user-11'));
    const hits = await cache('users', 'Query', 'hit');
    const again = await postGraphQL(gateway().url, me, await bearer('user-11'));
    const other = await postGraphQL(gateway().url, me, await bearer('user-12'));

    expect(first.body.data).toMatchObject({ me: { id: 'user-11' } });
    expect(again.body).toEqual(first.body);
    expect(await cache('users', 'Query', 'hit')).toBe(hits + 1); // it was kept: the test can fail
    expect(other.body.data).toMatchObject({ me: { id: 'user-12' } });
    // A client's own x-user-id is not forwarded (the JWT plugin owns it), so it cannot pick a key either.
    const spoofed = await postGraphQL(gateway().url, me, { 'x-user-id': 'user-11' });
    expect(spoofed.body.data).toEqual({ me: null });
  });

  it('aliases are part of the selection: an alias cannot plant one field under another name', async () => {
    const planted = await postGraphQL(gateway().url, { query: '{ topProducts(first: 2) { id name: upc } }' });
    const honest = await postGraphQL(gateway().url, { query: '{ topProducts(first: 2) { id name upc } }' });

    const rows = (result: typeof honest) => (result.body.data as { topProducts: Record<string, string>[] }).topProducts;
    expect(rows(planted)).toHaveLength(2);
    for (const row of rows(honest)) expect(row.name).not.toBe(row.upc);
  });

  it('variables are part of the key: other values are never answered from one entry', async () => {
    const query = 'query Top($n: Int) { topProducts(first: $n) { id } }';
    const one = await postGraphQL(gateway().url, { query, variables: { n: 1 } });
    const three = await postGraphQL(gateway().url, { query, variables: { n: 3 } });

    expect((one.body.data as { topProducts: unknown[] }).topProducts).toHaveLength(1);
    expect((three.body.data as { topProducts: unknown[] }).topProducts).toHaveLength(3);
  });

  it('`__typename` asked or not, each answer has its own shape', async () => {
    const plain = await postGraphQL(gateway().url, { query: '{ product(id: "product-2") { id reviews { id } } }' });
    const typed = await postGraphQL(gateway().url, {
      query: '{ product(id: "product-2") { __typename id reviews { __typename id } } }',
    });
    const again = await postGraphQL(gateway().url, { query: '{ product(id: "product-2") { id reviews { id } } }' });

    expect(typed.body.data).toMatchObject({ product: { __typename: 'Product', id: 'product-2' } });
    expect(again.body).toEqual(plain.body);
    expect(JSON.stringify(again.body)).not.toContain('__typename');
  });

  it('one client filling the cache evicts its own key space, not the entries others read', async () => {
    const victim = { query: '{ users(first: 3) { edges { node { id reviews { id } } } } }' };
    await postGraphQL(gateway().url, victim);
    // ~70 KB answers under ever new arguments: 1.4 MB in all, past the whole cache's 1 MB,
    // so a plain LRU would evict the victim's older entries; the Query space's quarter stops it.
    const flood = (first: number) =>
      `{ ${Array.from({ length: 8 }, (_, alias) => `a${alias}: topProducts(first: ${first}) { id name upc price }`).join(' ')} }`;
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        Array.from({ length: 5 }, (_, i) => postGraphQL(gateway().url, { query: flood(100 - round * 5 - i) })),
      );
    }
    expect(await cache('products', 'Query', 'eviction')).toBeGreaterThan(0);
    const hits = await cache('reviews', 'User', 'hit');

    await postGraphQL(gateway().url, victim);

    expect(await cache('reviews', 'User', 'hit')).toBe(hits + 3);
    expect(await cache('reviews', 'User', 'eviction')).toBe(0);
  });

  it('identities that join one deduplicated execution each get their own answer', async () => {
    const me = { query: '{ me { id name } }' };
    const callers = ['user-21', 'user-22', 'user-21', 'user-23', 'user-22'];
    const results = await Promise.all(
      callers.map(async (subject) => postGraphQL(gateway().url, me, await bearer(subject))),
    );

    results.forEach((result, index) => {
      expect(result.body.data).toMatchObject({ me: { id: callers[index] } });
    });
  });
});

const cacheTotal = async (gateway: RunningGateway, subgraph: string, type: string, outcome: string) =>
  parseMetrics(await (await fetch(new URL('/metrics', gateway.origin))).text()).value('gateway_entity_cache_total', {
    subgraph,
    type,
    outcome,
  });

describe.each(['b3', 'b3multi'])('entity cache with OTEL_PROPAGATORS=%s', (propagator) => {
  let receiver: OtlpReceiver;
  let products: ProxiedSubgraph;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    products = await proxySubgraph(() => subgraphs().products.url);
  });
  afterAll(async () => {
    await products.close();
    await receiver.close();
  });
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_PRODUCTS_URL: products.url,
    ENTITY_CACHE: 'memory',
    METRICS_ENABLED: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_PROPAGATORS: propagator,
  }));

  it('the propagator’s headers, new on every request, are not in the key: the second request is a hit', async () => {
    const query = { query: '{ topProducts(first: 4) { id name } }' };
    const first = await postGraphQL(gateway().url, query);
    const hits = await cacheTotal(gateway(), 'products', 'Query', 'hit');
    const second = await postGraphQL(gateway().url, query);

    expect(second.body).toEqual(first.body);
    expect(await cacheTotal(gateway(), 'products', 'Query', 'hit')).toBe(hits + 1);
    // The subgraph was sent the propagator's headers (so the test can fail), once.
    expect(products.seen).toHaveLength(1);
    const sent = Object.keys(products.seen[0]?.headers ?? {});
    expect(sent).toContain(propagator === 'b3' ? 'b3' : 'x-b3-traceid');
  });
});

describe('entity cache: one client’s flood, a failed partial fetch, private answers (fastify)', () => {
  let reviews: ProxiedSubgraph;
  let users: ProxiedSubgraph;
  let failing = false;
  beforeAll(async () => {
    // Reviews kept a minute (the demo's 5 s could run out mid-test); a fetch that asks for product-3 fails while `failing`.
    reviews = await proxySubgraph(() => subgraphs().reviews.url, {
      cacheControl: () => 'public, max-age=60',
      fail: (body) => failing && body.includes('"product-3"'),
    });
    // Users answers user-alice privately, everyone else publicly: one selection, both kinds of answer.
    users = await proxySubgraph(() => subgraphs().users.url, {
      cacheControl: (headers) => (headers['x-user-id'] === 'user-alice' ? 'private, max-age=60' : 'public, max-age=60'),
    });
  });
  afterAll(async () => {
    await reviews.close();
    await users.close();
  });
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_REVIEWS_URL: reviews.url,
    SUBGRAPH_USERS_URL: users.url,
    ENTITY_CACHE: 'memory',
    ENTITY_CACHE_MAX_BYTES: '1mb',
    ENTITY_CACHE_CLIENT_WRITE_BYTES: '128kb',
    METRICS_ENABLED: 'true',
    GATEWAY_PLUGINS: 'jwt,rate-limit',
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_KEY: 'sub',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    JWT_CLAIM_HEADERS: 'sub:x-user-id',
  }));

  it('a partial hit whose fetch for the other entities fails serves the kept ones; errors only where it failed', async () => {
    const two = await postGraphQL(gateway().url, { query: '{ topProducts(first: 2) { id reviews { id } } }' });
    failing = true;
    const three = await postGraphQL(gateway().url, {
      query: '{ topProducts(first: 3) { id reviews { id } } }',
    }).finally(() => {
      failing = false;
    });

    const kept = (two.body.data as { topProducts: unknown[] }).topProducts;
    const rows = (three.body.data as { topProducts: { id: string; reviews: unknown }[] }).topProducts;
    expect(reviews.seen.at(-1)?.body).toContain('"product-3"'); // the fetch did fail (the test can fail)
    expect(rows.slice(0, 2)).toEqual(kept);
    expect(rows[2]).toEqual({ id: 'product-3', reviews: null });
    expect(three.body.errors?.length).toBeGreaterThan(0);
    for (const error of three.body.errors ?? []) expect(error.path?.slice(0, 2)).toEqual(['topProducts', 2]);
  });

  it('one private answer does not turn its selection private: anonymous and other signed-in callers still hit', async () => {
    const authors = { query: '{ product(id: "product-4") { reviews { author { id name } } } }' };
    const usersAsked = () => users.seen.filter((request) => request.body.includes('_entities')).length;
    await postGraphQL(gateway().url, authors, await bearer('user-alice'));
    const before = usersAsked();

    const anonymous = [await postGraphQL(gateway().url, authors), await postGraphQL(gateway().url, authors)];
    const bob = await bearer('user-bob');
    const signedIn = [await postGraphQL(gateway().url, authors, bob), await postGraphQL(gateway().url, authors, bob)];

    for (const result of [...anonymous, ...signedIn]) expect(result.body.errors).toBeUndefined();
    expect(anonymous[1]?.body).toEqual(anonymous[0]?.body);
    // Each asked the users subgraph once, then hit what it kept.
    expect(usersAsked()).toBe(before + 2);
  });

  it('one client flooding the key space others read cannot evict their entries: past its write budget it is not kept', async () => {
    const victim = { query: '{ topProducts(first: 2) { id name } }' };
    await postGraphQL(gateway().url, victim);
    // ~70 KB answers under ever new arguments, from one signed-in client (RATE_LIMIT_KEY=sub):
    // 1.4 MB into the products Query space the victim's entry is in, past its 256 KB.
    const flood = (first: number) =>
      `{ ${Array.from({ length: 8 }, (_, alias) => `a${alias}: topProducts(first: ${first}) { id name upc price }`).join(' ')} }`;
    const flooder = await bearer('flooder');
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        Array.from({ length: 5 }, (_, i) => postGraphQL(gateway().url, { query: flood(100 - round * 5 - i) }, flooder)),
      );
    }
    const hits = await cacheTotal(gateway(), 'products', 'Query', 'hit');

    const again = await postGraphQL(gateway().url, victim);

    expect(again.body.errors).toBeUndefined();
    expect(await cacheTotal(gateway(), 'products', 'Query', 'hit')).toBe(hits + 1);
    expect(await cacheTotal(gateway(), 'products', 'Query', 'throttled')).toBeGreaterThan(0);
  });
});

const REDIS = available('redis-server', import.meta.url);

describe.skipIf(!REDIS)('entity cache in Redis, shared by two gateways', () => {
  let redis: TestRedis;
  const replicas: RunningGateway[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    const env = {
      ...subgraphUrlEnv(subgraphs()),
      ENTITY_CACHE: 'redis',
      GATEWAY_REDIS_URL: redis.url,
      METRICS_ENABLED: 'true',
      GATEWAY_PLUGINS: 'jwt',
      JWT_SECRET: SECRET,
      JWT_ALGORITHMS: 'HS256',
      JWT_REQUIRED: 'false',
      JWT_CLAIM_HEADERS: 'sub:x-user-id',
    };
    replicas.push(...(await Promise.all([startGateway('fastify', env), startGateway('express', env)])));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    redis.resume();
    await redis.stop();
  });
  const [a, b] = [() => replicas[0] as RunningGateway, () => replicas[1] as RunningGateway];
  const metric = async (gateway: RunningGateway, name: string, labels: Record<string, string>) =>
    parseMetrics(await (await fetch(new URL('/metrics', gateway.origin))).text()).value(name, labels);
  const fetches = (gateway: RunningGateway, subgraph: string) =>
    metric(gateway, 'gateway_subgraph_fetch_duration_seconds_count', { subgraph });
  const query = { query: '{ product(id: "product-9") { id name price reviews { id comment } } }' };

  it('one replica answers from what the other kept; garbage in Redis is a miss, never an error', async () => {
    // The store connects on first use: wait until replica A keeps and reads back an answer.
    await eventually(async () => {
      await postGraphQL(a().url, query);
      expect(
        await metric(a(), 'gateway_entity_cache_total', { subgraph: 'products', type: 'Query', outcome: 'hit' }),
      ).toBeGreaterThan(0);
    });
    const expected = (await postGraphQL(a().url, query)).body;
    await eventually(async () => {
      await postGraphQL(b().url, query);
      expect(
        await metric(b(), 'gateway_entity_cache_total', { subgraph: 'products', type: 'Query', outcome: 'hit' }),
      ).toBeGreaterThan(0);
    });
    const asked = await fetches(b(), 'products');
    expect((await postGraphQL(b().url, query)).body).toEqual(expected);
    expect(await fetches(b(), 'products')).toBe(asked);

    const keys = (await redis.command('KEYS gw:ec:*')).split('\r\n').filter((line) => line.startsWith('gw:ec:'));
    expect(keys.length).toBeGreaterThan(0);
    for (const [index, key] of keys.entries()) {
      await redis.command(`SET ${key} ${index % 2 ? '[1,2,3]' : 'not-json{'}`);
    }
    const after = await postGraphQL(b().url, query);

    expect(after.status).toBe(200);
    expect(after.body).toEqual(expected);
    expect(await fetches(b(), 'products')).toBe(asked + 1);
  });

  it('a review added through one replica is seen through the other at once (Redis invalidated by SCAN)', async () => {
    await postGraphQL(b().url, query);
    await postGraphQL(b().url, query);
    const comment = 'seen by every replica';
    const added = await postGraphQL(
      a().url,
      { query: `mutation { addReview(productId: "product-9", rating: 4, comment: "${comment}") { id } }` },
      await bearer('user-9'),
    );
    expect(added.body.errors).toBeUndefined();

    const seen = await postGraphQL(b().url, query);
    const comments = (seen.body.data as { product: { reviews: { comment: string }[] } }).product.reviews;
    expect(comments.map((review) => review.comment)).toContain(comment);
  });

  it('Redis frozen or down: every request is answered from the subgraphs (a bypass), then the cache is used again', async () => {
    redis.pause();
    const frozen = await Promise.all(Array.from({ length: 6 }, () => postGraphQL(a().url, query)));
    await redis.stop();
    const down = await postGraphQL(a().url, query);

    for (const result of [...frozen, down]) {
      expect(result.status).toBe(200);
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data).toMatchObject({ product: { id: 'product-9' } });
    }
    expect(
      await metric(a(), 'gateway_entity_cache_total', { subgraph: 'products', type: 'Query', outcome: 'bypass' }),
    ).toBeGreaterThan(0);

    await redis.restart();
    const hits = await metric(a(), 'gateway_entity_cache_total', {
      subgraph: 'products',
      type: 'Query',
      outcome: 'hit',
    });
    await eventually(async () => {
      await postGraphQL(a().url, query);
      expect(
        await metric(a(), 'gateway_entity_cache_total', { subgraph: 'products', type: 'Query', outcome: 'hit' }),
      ).toBeGreaterThan(hits);
    }, 15_000);
  });
});
