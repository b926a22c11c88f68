import { available, eventually, startRedis, type TestRedis } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisEntityStore } from '../../../src/plugins/entity-cache/redis-store.js';

/**
 * The Redis store against a real redis-server, as a busy gateway uses it: a lookup whose
 * answer arrived while the gateway's own event loop was blocked past the deadline is a hit, not
 * a timeout; a Redis that is really slow (frozen) is still a bypass, and an invalidation it cannot
 * take rejects. (Down, frozen and garbage
 * through the whole gateway: tests/adversarial/entity-cache.test.ts.)
 */
const REDIS = available('redis-server', import.meta.url);

/** Keeps the event loop busy for `ms`, as a saturated gateway's request work does. */
function blockLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: no timer, no I/O callback runs meanwhile
  }
}

describe.skipIf(!REDIS)('entity cache Redis store', () => {
  let redis: TestRedis;
  let store: RedisEntityStore;
  beforeAll(async () => {
    redis = await startRedis();
    store = new RedisEntityStore({ url: redis.url, commandTimeoutMs: 100, failuresBeforeSkip: 3 });
    const entry = { key: 'k', value: '{"name":"kept"}', ttlMs: 60_000, space: 'public:p:T', subgraph: 'p', type: 'T' };
    // The client connects on first use; writes are dropped until it is ready.
    await eventually(async () => {
      store.set([entry]);
      expect((await store.get(['k']))?.[0]).toBeDefined();
    });
  });
  afterAll(async () => {
    await store?.close();
    redis.resume();
    await redis.stop();
  });

  it('a lookup answered while the gateway was busy past the deadline is a hit, and never trips the breaker', async () => {
    for (let round = 0; round < 4; round++) {
      const lookup = store.get(['k']);
      blockLoop(250); // Redis answers within a millisecond; the deadline (100 ms) passes meanwhile
      expect(await lookup).toEqual(['{"name":"kept"}']);
    }
    expect(await store.get(['k'])).toEqual(['{"name":"kept"}']);
  });

  it('an invalidation Redis cannot take rejects (the plugin retries it); once Redis answers it resolves', async () => {
    redis.pause();
    try {
      await expect(store.invalidate({ subgraph: 'p' })).rejects.toThrow();
    } finally {
      redis.resume();
    }
    await expect(store.invalidate({ subgraph: 'p' })).resolves.toBe(0);
  });

  it('a Redis that does not answer is still a bypass after the deadline', async () => {
    redis.pause();
    try {
      expect(await store.get(['k'])).toBeUndefined();
    } finally {
      redis.resume();
    }
  });
});
