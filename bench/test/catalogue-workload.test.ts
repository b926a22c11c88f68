import { mulberry32 } from '@fedgw/subgraphs';
import { describe, expect, it } from 'vitest';
import { checkWorkloadAnswers } from '../src/load/answer-check.js';
import { CATALOGUE, catalogueWorkload, productPageExpected, type SignedInUser } from '../src/load/catalogue.js';
import { zipfSampler } from '../src/load/zipf.js';
import type { PlanContext } from '../src/run/plan.js';
import { planScenarios } from '../src/scenarios/index.js';
import { createSetups } from '../src/targets/setups.js';
import { resolveTargets } from '../src/targets/targets.js';
import { sendJson, startFakeServer } from './fake-server.js';

const draws = <T>(sample: () => T, count: number): T[] => Array.from({ length: count }, sample);

describe('zipfSampler', () => {
  it('replays the same ranks for the same seed, others for another', () => {
    const a = draws(zipfSampler(500, 1, mulberry32(7)), 1000);
    expect(draws(zipfSampler(500, 1, mulberry32(7)), 1000)).toEqual(a);
    expect(draws(zipfSampler(500, 1, mulberry32(8)), 1000)).not.toEqual(a);
  });

  it('draws rank k about 1/k as often as rank 1 (s = 1), always within 1..n', () => {
    const counts = new Map<number, number>();
    for (const rank of draws(zipfSampler(500, 1, mulberry32(1)), 200_000)) {
      counts.set(rank, (counts.get(rank) ?? 0) + 1);
    }
    expect(Math.min(...counts.keys())).toBe(1);
    expect(Math.max(...counts.keys())).toBeLessThanOrEqual(500);
    // P(1) = 1 / H(500) ≈ 0.147; P(2) = P(1) / 2; P(10) = P(1) / 10.
    const share = (rank: number) => (counts.get(rank) ?? 0) / 200_000;
    expect(share(1)).toBeCloseTo(0.147, 2);
    expect(share(1) / share(2)).toBeCloseTo(2, 0);
    expect(share(1) / share(10)).toBeGreaterThan(8);
    expect(share(1) / share(10)).toBeLessThan(12);
  });

  it('is uniform at s = 0 and refuses an empty catalogue', () => {
    const ranks = draws(zipfSampler(4, 0, mulberry32(3)), 40_000);
    for (const rank of [1, 2, 3, 4]) expect(ranks.filter((r) => r === rank).length / 40_000).toBeCloseTo(0.25, 1);
    expect(() => zipfSampler(0, 1, mulberry32(3))).toThrow(RangeError);
  });
});

const users: SignedInUser[] = [
  { userId: 'user-1', authorization: 'Bearer one' },
  { userId: 'user-11', authorization: 'Bearer eleven' },
];

describe('catalogueWorkload', () => {
  it('replays one sequence per phase: anonymous pages and about a fifth signed in, with their own token', () => {
    const workload = catalogueWorkload(users);
    const take = (phase: 'warmup' | 'measure') => draws(workload.stream(phase), 2000);
    const measure = take('measure');
    expect(take('measure')).toEqual(measure);
    expect(take('warmup')).not.toEqual(measure);
    const signedIn = measure.filter((request) => request.headers.authorization !== undefined);
    expect(signedIn.length / measure.length).toBeCloseTo(CATALOGUE.signedInShare, 1);
    for (const request of signedIn) {
      const { variables } = JSON.parse(request.body) as { variables: { userId: string } };
      const user = users.find((u) => u.userId === variables.userId);
      expect(request.headers.authorization).toBe(user?.authorization);
    }
  });

  it('checks each sampled product anonymously and as two users, twice, with the reference answers', () => {
    const samples = catalogueWorkload(users).samples();
    expect(samples).toHaveLength(2 * 12 * 3);
    const asUser = samples.find((sample) => sample.label === 'ProductPageSignedIn product-1 as user-11');
    expect(asUser?.request.headers).toEqual({ authorization: 'Bearer eleven' });
    expect(asUser?.expected).toMatchObject({ product: { id: 'product-1' }, user: { id: 'user-11' } });
    // product-481 has no reviews: the empty list, not null.
    expect(samples.find((sample) => sample.label === 'ProductPage product-481')?.expected).toMatchObject({
      product: { id: 'product-481', reviews: [] },
    });
  });
});

describe('§G answer check', () => {
  /** A target answering each page from the reference data, the profile of `profileOf(userId)`. */
  const target = (profileOf: (userId: string) => string) =>
    startFakeServer((body, _index, res) => {
      const { variables } = JSON.parse(body) as { variables: { productId: string; userId?: string } };
      const userId = variables.userId === undefined ? undefined : profileOf(variables.userId);
      sendJson(res, 200, { data: productPageExpected(variables.productId, userId) });
    });

  it('passes a target that answers every sample right, and names the request a leaking cache got wrong', async () => {
    const workload = catalogueWorkload(users);
    const right = await target((userId) => userId);
    const leaking = await target(() => 'user-1');
    try {
      expect(await checkWorkloadAnswers(right.url, workload)).toEqual({ ok: true, checked: 72 });
      const check = await checkWorkloadAnswers(leaking.url, workload);
      expect(check.ok).toBe(false);
      expect(!check.ok && check.message).toMatch(/^ProductPageSignedIn product-1 as user-11: /);
    } finally {
      await Promise.all([right.close(), leaking.close()]);
    }
  });
});

describe('§G plan', () => {
  it('runs our first mount with the cache off, in memory and in Redis, the Router as it ships, Hive with its response cache', async () => {
    const context: PlanContext = {
      targets: resolveTargets(['nest-fastify', 'fastify', 'apollo-router', 'hive-gateway', 'hive-gateway-rust'], []),
      setups: await createSetups(),
      router: { path: '/bin/router', version: '2.17.0' },
      redisAvailable: false,
      closedSec: 30,
      fixedSec: 60,
      warmupSec: 5,
      connections: 100,
      adapterConnections: [50],
      constantRate: 100,
      rates: [100],
    };
    const [g] = planScenarios(['G'], context);
    expect(
      g?.rows.map((row) => `${row.target.name} ${row.variant} (${row.setup.key})${row.skip ? ' skip' : ''}`),
    ).toEqual([
      'nest-fastify ProductPage · entity cache off (entity-cache-off)',
      'nest-fastify ProductPage · entity cache memory (entity-cache-memory)',
      'nest-fastify ProductPage · entity cache redis (entity-cache-redis) skip',
      'apollo-router ProductPage · no cache (licensed) (entity-cache-off)',
      'hive-gateway-rust ProductPage · response cache (response-cache)',
    ]);
    // Every row sends the same workload; our rows verify the same run's tokens, Hive caches per token.
    const workloads = new Set(g?.rows.map((row) => row.setup.workload));
    expect(workloads.size).toBe(1);
    expect(context.setups['entity-cache-memory'].gatewayEnv({})).toMatchObject({
      GATEWAY_PLUGINS: 'jwt',
      JWT_REQUIRED: 'false',
      ENTITY_CACHE: 'memory',
    });
    expect(context.setups['response-cache'].hiveEnv).toEqual({ BENCH_HIVE_RESPONSE_CACHE: 'true' });
  });
});
