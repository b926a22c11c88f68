import {
  available,
  closedPortUrl,
  postGraphQL,
  type RunningGateway,
  startGateway,
  startRedis,
  type TestRedis,
} from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';

// Class: a shared dependency that hangs makes every client wait. A frozen Redis (SIGSTOP:
// connected, answering nothing) cost each request the 500 ms command timeout; after a few
// timeouts the store is skipped at once and probed in the background until it answers again.

const REDIS = available('redis-server', import.meta.url);
const QUERY = { query: '{ __typename }' };
let gateway: RunningGateway | undefined;
let redis: TestRedis | undefined;
afterEach(async () => {
  await gateway?.stop();
  redis?.resume();
  await redis?.stop();
  gateway = undefined;
  redis = undefined;
});

async function start(failureMode: 'open' | 'closed') {
  redis = await startRedis();
  gateway = await startGateway('fastify', {
    GATEWAY_PLUGINS: 'rate-limit',
    GATEWAY_REDIS_URL: redis.url,
    RATE_LIMIT_MAX: '1000',
    RATE_LIMIT_FAILURE_MODE: failureMode,
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
  });
  expect((await postGraphQL(gateway.url, QUERY)).headers.get('ratelimit-limit')).toBe('1000');
  return { gateway, redis };
}

/** Sends `count` requests one after another: each one's status and whether it waited on Redis (>= 400 ms). */
async function sequence(url: string, count: number) {
  const results: { status: number; waited: boolean }[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const { status } = await postGraphQL(url, QUERY);
    results.push({ status, waited: performance.now() - started >= 400 });
  }
  return results;
}

describe.skipIf(!REDIS)('a frozen Redis behind the rate limit', () => {
  it.each(['open', 'closed'] as const)(
    'failure mode %s: only the first few requests wait for it; the rest are answered at once, then it is used again',
    async (failureMode) => {
      const { gateway: target, redis: store } = await start(failureMode);
      store.pause();
      const results = await sequence(target.url, 20);
      expect(new Set(results.map((r) => r.status))).toEqual(new Set([failureMode === 'open' ? 200 : 503]));
      // Three timeouts in a row skip the store (one more may be on its way when that happens).
      expect(results.filter((r) => r.waited).length).toBeLessThanOrEqual(4);
      store.resume();
      // The background probe hears it again: requests are counted (and limited) once more.
      await expect
        .poll(async () => (await postGraphQL(target.url, QUERY)).headers.get('ratelimit-limit'), { timeout: 10_000 })
        .toBe('1000');
    },
  );
});
