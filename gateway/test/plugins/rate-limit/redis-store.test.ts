import { randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createConnection, createServer, type Server } from 'node:net';
import { available, eventually, startRedis, type TestRedis } from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PluginOptionsError } from '../../../src/errors.js';
import { RedisStore, type RedisStoreOptions } from '../../../src/plugins/rate-limit/redis-store.js';

/** Upper bound for "settles quickly": generous, it only catches a hang. */
const NO_HANG_MS = 3_000;

// Needs a real redis-server; without one the suite skips (listed at the end of the run).
describe.skipIf(!available('redis-server', import.meta.url))('RedisStore', () => {
  let redis: TestRedis;
  const stores: RedisStore[] = [];
  const servers: TestRedis[] = [];
  const proxies: Server[] = [];
  const create = (options: Partial<RedisStoreOptions> = {}) => {
    const store = new RedisStore({ url: redis.url, keyPrefix: `test:${randomUUID()}:`, ...options });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    for (const proxy of proxies.splice(0)) proxy.close();
  });
  afterAll(async () => {
    await redis.stop();
  });

  /** A Redis of its own, for tests that stop or freeze it. */
  async function ownRedis(): Promise<TestRedis> {
    const server = await startRedis();
    servers.push(server);
    return server;
  }

  it('counts concurrent hits exactly, in one atomic step each', async () => {
    const store = create();
    const hits = await Promise.all(Array.from({ length: 200 }, () => store.hit('ip:a', 1, 60_000)));
    expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const hit of hits) {
      expect(hit.resetInMs).toBeGreaterThan(0);
      expect(hit.resetInMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('adds the cost and keeps one count per key', async () => {
    const store = create();
    expect((await store.hit('ip:a', 3, 60_000)).count).toBe(3);
    expect((await store.hit('ip:a', 2, 60_000)).count).toBe(5);
    expect((await store.hit('ip:b', 1, 60_000)).count).toBe(1);
  });

  it('writes keys under the prefix (gw:rl: by default) with the window as their expiry', async () => {
    const key = `ip:${randomUUID()}`;
    const store = new RedisStore({ url: redis.url });
    stores.push(store);
    await store.hit(key, 1, 60_000);
    expect(await redis.command(`GET gw:rl:${key}`)).toBe('$1\r\n1\r\n');
    const ttl = Number((await redis.command(`PTTL gw:rl:${key}`)).slice(1));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);

    const custom = create({ keyPrefix: 'custom:' });
    await custom.hit(key, 4, 60_000);
    expect(await redis.command(`GET custom:${key}`)).toBe('$1\r\n4\r\n');
  });

  it('starts a new window once the window has ended', async () => {
    // The window is the key's expiry, on Redis's clock: the test waits for Redis to drop the key.
    const prefix = `test:${randomUUID()}:`;
    const store = create({ keyPrefix: prefix });
    await store.hit('ip:a', 1, 150);
    const second = await store.hit('ip:a', 1, 150);
    expect(second.count).toBe(2);
    await eventually(async () => expect(await redis.command(`EXISTS ${prefix}ip:a`)).toBe(':0\r\n'));
    const next = await store.hit('ip:a', 1, 150);
    expect(next.count).toBe(1);
    expect(next.resetInMs).toBeGreaterThan(0);
  });

  it('shares counts between stores (gateway instances) on the same Redis', async () => {
    const prefix = `test:${randomUUID()}:`;
    const first = create({ keyPrefix: prefix });
    const second = create({ keyPrefix: prefix });
    await first.hit('ip:a', 1, 60_000);
    expect((await second.hit('ip:a', 1, 60_000)).count).toBe(2);
  });

  it('rejects at once, without hanging, while Redis is down; recovers when it is back', async () => {
    const server = await ownRedis();
    const store = create({ url: server.url, maxReconnectDelayMs: 100 });
    expect((await store.hit('ip:a', 1, 60_000)).count).toBe(1);

    await server.stop();
    const started = Date.now();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => store.hit('ip:a', 1, 60_000)));
    expect(Date.now() - started).toBeLessThan(NO_HANG_MS);
    for (const result of results) expect(result.status).toBe('rejected');

    await server.restart();
    // The restarted server has no data (nothing is persisted): counting starts again.
    await expect
      .poll(
        () =>
          store.hit('ip:b', 1, 60_000).then(
            (hit) => hit.count,
            () => 'down',
          ),
        { timeout: 10_000 },
      )
      .toBe(1);
  });

  it('rejects within its command timeout when Redis hangs', async () => {
    const server = await ownRedis();
    const store = create({ url: server.url, commandTimeoutMs: 200 });
    await store.hit('ip:a', 1, 60_000);
    server.pause();
    try {
      const started = Date.now();
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => store.hit('ip:a', 1, 60_000)));
      expect(Date.now() - started).toBeLessThan(NO_HANG_MS);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        expect(String((result as PromiseRejectedResult).reason)).toMatch(/timed out/i);
      }
    } finally {
      server.resume();
    }
  });

  it('a hit answered while the gateway was busy past its timeout counts, and never trips the breaker', async () => {
    const store = create({ commandTimeoutMs: 100, failuresBeforeSkip: 2 });
    await store.hit('ip:busy', 1, 60_000); // connected
    for (let round = 2; round <= 4; round++) {
      const hit = store.hit('ip:busy', 1, 60_000);
      const until = Date.now() + 250; // the loop is blocked: Redis answers meanwhile, the timeout passes
      while (Date.now() < until) {
        // busy, as a saturated gateway's request work is
      }
      expect((await hit).count).toBe(round);
    }
  });

  it('waits for the first connection instead of failing the first hits', async () => {
    const store = create();
    const hits = await Promise.all([store.hit('ip:a', 1, 60_000), store.hit('ip:a', 1, 60_000)]);
    expect(hits.map((hit) => hit.count).sort()).toEqual([1, 2]);
  });

  it('waits for the next attempt when the first connection was dropped, instead of failing at once', async () => {
    // A handshake that outlives the command timeout (here a frozen Redis; at startup, the
    // gateway's own start keeping the event loop busy) makes ioredis drop the connection and
    // retry it after 100 ms: a hit made in between must wait for that retry.
    const server = await ownRedis();
    server.pause();
    const proxy = await countingProxy(server.port);
    const store = create({ url: proxy.url, commandTimeoutMs: 500, maxReconnectDelayMs: 100 });
    await once(proxy.events, 'client closed'); // ioredis gave up its first connection
    server.resume();
    expect((await store.hit('ip:a', 1, 60_000)).count).toBe(1);
  });

  /** A TCP proxy to a Redis that says when a client closes a connection (a frozen Redis cannot). */
  async function countingProxy(port: number) {
    const events = new EventEmitter();
    const server: Server = createServer((client) => {
      const upstream = createConnection(port, '127.0.0.1');
      client.pipe(upstream).pipe(client);
      client.on('error', () => {});
      upstream.on('error', () => {});
      client.on('close', () => {
        upstream.destroy();
        events.emit('client closed');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxies.push(server);
    return { url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`, events };
  }

  it('fails, and closes, quickly when Redis was never there', async () => {
    const server = await ownRedis();
    await server.stop();
    const store = create({ url: server.url });
    const started = Date.now();
    await expect(store.hit('ip:a', 1, 60_000)).rejects.toThrow(/Redis is not connected/);
    await store.close();
    expect(Date.now() - started).toBeLessThan(NO_HANG_MS);
  });

  it('names every bad option', () => {
    let error: unknown;
    try {
      new RedisStore({
        url: 'http://localhost:6379',
        keyPrefix: 7,
        commandTimeoutMs: 0,
        connectTimeoutMs: 'fast',
        maxReconnectDelayMs: -1,
        password: 'x',
      } as unknown as RedisStoreOptions);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect((error as PluginOptionsError).issues.map((issue) => issue.field).sort()).toEqual([
      'RedisStore.commandTimeoutMs',
      'RedisStore.connectTimeoutMs',
      'RedisStore.keyPrefix',
      'RedisStore.maxReconnectDelayMs',
      'RedisStore.password',
      'RedisStore.url',
    ]);
  });
});
