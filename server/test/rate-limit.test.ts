import { randomUUID } from 'node:crypto';
import { listenFastify } from '@fedgw/adapters/fastify';
import {
  createGateway,
  type GatewayPlugin,
  PluginOptionsError,
  parseConfig,
  type RequestScope,
  type ResolvedRequest,
} from '@fedgw/gateway';
import {
  MemoryStore,
  type RateLimitHit,
  type RateLimitOptions,
  type RateLimitStore,
  RedisStore,
  rateLimit,
} from '@fedgw/gateway/rate-limit';
import {
  available,
  closedPortUrl,
  type GraphQLResult,
  json,
  postGraphQL,
  SUPERGRAPH_PATH,
  startRedis,
  startTestHttpServer,
  type TestHttpServer,
  type TestRedis,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CapturedLogger, captureLogger } from './helpers/captured-logger.js';

/**
 * Upper bound for "settles without hanging": it only catches a hang (a paused Redis without the
 * command timeout never answers), so it sits just under the 30 s test timeout, far above what a
 * loaded CI machine needs for 15 requests (5 s was exceeded there).
 */
const NO_HANG_MS = 20_000;
const TYPENAME = { query: '{ __typename }' };
const USER = { query: '{ user(id: "user-1") { id } }' };
const STORE_DOWN = /rate-limit store unavailable/;

/** A store that records the keys and costs it is asked for, counting in a real MemoryStore. */
function recordingStore(): RateLimitStore & { calls: { key: string; cost: number }[] } {
  const inner = new MemoryStore();
  const calls: { key: string; cost: number }[] = [];
  return {
    calls,
    hit(key: string, cost: number, windowMs: number): Promise<RateLimitHit> {
      calls.push({ key, cost });
      return inner.hit(key, cost, windowMs);
    },
    close: () => inner.close(),
  };
}

/** Puts `x-test-sub` / `x-test-consumer` into the identity, as the JWT and API key plugins would. */
const testAuth: GatewayPlugin = {
  name: 'test-auth',
  authenticate(scope) {
    const subject = scope.headers['x-test-sub'];
    const consumer = scope.headers['x-test-consumer'];
    return {
      ...(typeof subject === 'string' ? { subject } : {}),
      ...(typeof consumer === 'string' ? { consumer } : {}),
    };
  },
};

function errorCode(result: GraphQLResult): unknown {
  return result.body.errors?.[0]?.extensions?.code;
}

function statuses(results: GraphQLResult[]): number[] {
  return results.map((result) => result.status);
}

// The Redis-store cases need a real redis-server; without one they skip (listed at the end of the run).
const REDIS = available('redis-server', import.meta.url);

describe('rateLimit plugin', () => {
  let redis: TestRedis;
  let subgraph: TestHttpServer;
  let log: CapturedLogger;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (REDIS) redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    if (REDIS) await redis.command('FLUSHALL');
    subgraph = await startTestHttpServer(json({ data: { user: { id: 'user-1' } } }));
    log = captureLogger('warn');
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await subgraph.close();
  });

  /** A started gateway with these plugins, served by bare Fastify on a free port. */
  async function serve(plugins: GatewayPlugin[]): Promise<{ url: string; close(): Promise<void> }> {
    const config = parseConfig({
      SUPERGRAPH_PATH,
      SUBGRAPH_USERS_URL: subgraph.url,
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    });
    const gateway = createGateway(config, { logger: log.logger, plugins });
    await gateway.start();
    const server = await listenFastify(gateway, { port: 0, host: '127.0.0.1' });
    let closed: Promise<void> | undefined;
    const close = () => {
      closed ??= server.close().then(() => gateway.stop());
      return closed;
    };
    cleanups.push(close);
    return { url: `${server.url}/graphql`, close };
  }

  function limiter(options: Omit<RateLimitOptions, 'logger'>): GatewayPlugin {
    return rateLimit({ logger: log.logger, ...options });
  }

  /** A store the test owns (the plugin closes only the stores it builds). */
  function ownStore<T extends RateLimitStore>(store: T): T {
    cleanups.push(() => store.close());
    return store;
  }

  function sequential(url: string, count: number, payload = TYPENAME, headers: Record<string, string> = {}) {
    return (async () => {
      const results: GraphQLResult[] = [];
      for (let i = 0; i < count; i++) results.push(await postGraphQL(url, payload, headers));
      return results;
    })();
  }

  const stores: Array<[string, () => RateLimitStore]> = [
    ['memory', () => ownStore(new MemoryStore())],
    ...(REDIS
      ? [
          ['redis', () => ownStore(new RedisStore({ url: redis.url, keyPrefix: `test:${randomUUID()}:` }))] as [
            string,
            () => RateLimitStore,
          ],
        ]
      : []),
  ];

  describe.each(stores)('with the %s store', (_name, makeStore) => {
    it('lets exactly max of 50 concurrent requests through and answers the rest 429', async () => {
      const { url } = await serve([limiter({ max: 20, windowMs: 60_000, store: makeStore() })]);
      const results = await Promise.all(Array.from({ length: 50 }, () => postGraphQL(url, TYPENAME)));

      const allowed = results.filter((result) => result.status === 200);
      const rejected = results.filter((result) => result.status === 429);
      expect(allowed).toHaveLength(20);
      expect(rejected).toHaveLength(30);

      for (const result of allowed) {
        expect(result.body).toEqual({ data: { __typename: 'Query' } });
        expect(result.headers.get('ratelimit-limit')).toBe('20');
        const reset = Number(result.headers.get('ratelimit-reset'));
        expect(Number.isInteger(reset) && reset >= 1 && reset <= 60).toBe(true);
      }
      // Every allowed request saw its own count: remaining 19, 18, ... 0.
      const remaining = allowed.map((result) => Number(result.headers.get('ratelimit-remaining')));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));

      for (const result of rejected) {
        expect(errorCode(result)).toBe('REQUEST_RATE_LIMITED');
        expect(result.body.errors?.[0]?.message).toMatch(/^Rate limit exceeded: at most 20 per 60 s/);
        expect(result.body.data).toBeUndefined();
        const retryAfter = Number(result.headers.get('retry-after'));
        expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
        expect(result.headers.get('ratelimit-limit')).toBe('20');
        expect(result.headers.get('ratelimit-remaining')).toBe('0');
        expect(result.headers.get('ratelimit-reset')).toBe(String(retryAfter));
      }
      expect(log.lines).toEqual([]);
    });

    it('makes no subgraph call for a rejected request', async () => {
      const { url } = await serve([limiter({ max: 2, windowMs: 60_000, store: makeStore() })]);
      const results = await sequential(url, 3, USER);
      expect(statuses(results)).toEqual([200, 200, 429]);
      expect(results[0]?.body).toEqual({ data: { user: { id: 'user-1' } } });
      expect(errorCode(results[2] as GraphQLResult)).toBe('REQUEST_RATE_LIMITED');
      expect(subgraph.requests).toHaveLength(2);
    });
  });

  it('keys by IP by default', async () => {
    const store = ownStore(recordingStore());
    const { url } = await serve([testAuth, limiter({ max: 5, windowMs: 60_000, store })]);
    await postGraphQL(url, TYPENAME, { 'x-test-sub': 'alice' });
    expect(store.calls).toEqual([{ key: 'ip:127.0.0.1', cost: 1 }]);
  });

  it.skipIf(!REDIS)('keeps counting across a gateway restart with Redis', async () => {
    const options = { max: 5, windowMs: 60_000, redisUrl: redis.url };
    const first = await serve([limiter(options)]);
    const before = await sequential(first.url, 3);
    expect(before.map((result) => result.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2']);
    await first.close();

    const second = await serve([limiter(options)]);
    const after = await sequential(second.url, 3);
    expect(statuses(after)).toEqual([200, 200, 429]);
    expect(after.map((result) => result.headers.get('ratelimit-remaining'))).toEqual(['1', '0', '0']);
    expect(await redis.command('GET gw:rl:ip:127.0.0.1')).toBe('$1\r\n6\r\n');
  });

  describe.skipIf(!REDIS)('when the store fails', () => {
    const failures: Array<['stops' | 'hangs', 'open' | 'closed']> = [
      ['stops', 'open'],
      ['stops', 'closed'],
      ['hangs', 'open'],
      ['hangs', 'closed'],
    ];

    it.each(failures)('Redis %s, failure mode %s: answers within a bounded time', async (failure, failureMode) => {
      const own = await startRedis();
      cleanups.push(() => own.stop());
      const store = ownStore(new RedisStore({ url: own.url, commandTimeoutMs: 200, maxReconnectDelayMs: 100 }));
      const { url } = await serve([limiter({ max: 100, windowMs: 60_000, store, failureMode })]);

      const healthy = await postGraphQL(url, USER);
      expect(healthy.status).toBe(200);
      expect(healthy.headers.get('ratelimit-remaining')).toBe('99');

      if (failure === 'stops') await own.stop();
      else own.pause();
      const started = Date.now();
      const results = [
        ...(await Promise.all(Array.from({ length: 10 }, () => postGraphQL(url, USER)))),
        ...(await sequential(url, 5, USER)),
      ];
      expect(Date.now() - started).toBeLessThan(NO_HANG_MS);

      if (failureMode === 'open') {
        expect(statuses(results)).toEqual(Array(15).fill(200));
        for (const result of results) {
          expect(result.body).toEqual({ data: { user: { id: 'user-1' } } });
          expect(result.headers.get('ratelimit-limit')).toBeNull();
        }
        expect(subgraph.requests).toHaveLength(16);
      } else {
        expect(statuses(results)).toEqual(Array(15).fill(503));
        for (const result of results) {
          expect(errorCode(result)).toBe('RATE_LIMIT_UNAVAILABLE');
          expect(result.body.data).toBeUndefined();
        }
        expect(subgraph.requests).toHaveLength(1);
      }

      // One warning line for the 15 failures (the rest are counted, not logged).
      const warnings = log.lines.filter((line) => STORE_DOWN.test(String(line.msg)));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, plugin: 'rate-limit', failureMode });
      expect(log.lines.filter((line) => (line.level as number) >= 40 && line !== warnings[0])).toEqual([]);

      // Redis comes back (empty: nothing is persisted) and the limiter counts again.
      if (failure === 'stops') await own.restart();
      else own.resume();
      await expect
        .poll(async () => (await postGraphQL(url, TYPENAME)).headers.get('ratelimit-limit'), { timeout: 10_000 })
        .toBe('100');
    });

    it('logs again only after warnIntervalMs, with how many failures it did not log', async () => {
      const own = await startRedis();
      cleanups.push(() => own.stop());
      const store = ownStore(new RedisStore({ url: own.url }));
      let now = 0;
      const { url } = await serve([
        limiter({ max: 100, windowMs: 60_000, store, warnIntervalMs: 300, now: () => now }),
      ]);
      expect((await postGraphQL(url, TYPENAME)).status).toBe(200);
      await own.stop();

      expect(statuses(await sequential(url, 3))).toEqual([200, 200, 200]);
      now += 299;
      expect((await postGraphQL(url, TYPENAME)).status).toBe(200); // not logged: 1 ms short of the interval
      now += 1;
      expect((await postGraphQL(url, TYPENAME)).status).toBe(200);

      const warnings = log.lines.filter((line) => STORE_DOWN.test(String(line.msg)));
      expect(warnings.map((line) => line.suppressedSinceLastWarning)).toEqual([0, 3]);
    });
  });

  describe('keyBy', () => {
    it('global: one bucket for every caller; renaming the operation gets no fresh bucket', async () => {
      const store = ownStore(recordingStore());
      const { url } = await serve([testAuth, limiter({ max: 5, windowMs: 60_000, keyBy: 'global', store })]);
      // 20 fresh operation names from two callers: exactly `max` pass in all.
      const results = [];
      for (let i = 0; i < 20; i++) {
        const headers = { 'x-test-sub': i % 2 === 0 ? 'alice' : 'bob' };
        results.push(await postGraphQL(url, { query: `query Fresh${i} { __typename }` }, headers));
      }
      expect(statuses(results).filter((status) => status === 200)).toHaveLength(5);
      expect(new Set(store.calls.map((call) => call.key))).toEqual(new Set(['global']));
    });

    it('sub: one bucket per JWT subject; anonymous callers are counted by IP', async () => {
      const store = ownStore(recordingStore());
      const { url } = await serve([testAuth, limiter({ max: 2, windowMs: 60_000, keyBy: 'sub', store })]);
      const alice = await sequential(url, 3, TYPENAME, { 'x-test-sub': 'alice' });
      const bob = await sequential(url, 1, TYPENAME, { 'x-test-sub': 'bob' });
      const anonymous = await sequential(url, 3, TYPENAME);
      const keyedByConsumer = await sequential(url, 1, TYPENAME, { 'x-test-consumer': 'acme' });
      expect(statuses(alice)).toEqual([200, 200, 429]);
      expect(statuses(bob)).toEqual([200]);
      expect(statuses(anonymous)).toEqual([200, 200, 429]);
      // An API key is not a subject: that caller is anonymous here, in the (full) IP bucket.
      expect(statuses(keyedByConsumer)).toEqual([429]);
      expect(new Set(store.calls.map((call) => call.key))).toEqual(new Set(['sub:alice', 'sub:bob', 'ip:127.0.0.1']));
    });

    it('api-key: one bucket per API key consumer; anonymous callers are counted by IP', async () => {
      const store = ownStore(recordingStore());
      const { url } = await serve([testAuth, limiter({ max: 2, windowMs: 60_000, keyBy: 'api-key', store })]);
      const acme = await sequential(url, 3, TYPENAME, { 'x-test-consumer': 'acme' });
      const globex = await sequential(url, 1, TYPENAME, { 'x-test-consumer': 'globex' });
      const anonymous = await sequential(url, 3, TYPENAME);
      expect(statuses(acme)).toEqual([200, 200, 429]);
      expect(statuses(globex)).toEqual([200]);
      expect(statuses(anonymous)).toEqual([200, 200, 429]);
      expect(new Set(store.calls.map((call) => call.key))).toEqual(
        new Set(['api-key:acme', 'api-key:globex', 'ip:127.0.0.1']),
      );
    });

    it('ip: an IPv6 caller is counted by its network (ipv6Prefix: CLIENT_IPV6_PREFIX), which every address of it shares', async () => {
      const store = ownStore(recordingStore());
      // The preflight's charge (admit) keys exactly as a request's.
      const at = (ip: string) => ({ ip, identity: {} }) as unknown as RequestScope;
      const byNetwork = limiter({ max: 2, windowMs: 60_000, store });
      await byNetwork.admit?.(at('2001:db8:1:2::1'));
      await byNetwork.admit?.(at('2001:db8:1:2:a:b:c:d'));
      await expect(byNetwork.admit?.(at('2001:db8:1:2::ffff'))).rejects.toMatchObject({
        extensions: { code: 'REQUEST_RATE_LIMITED' },
      });
      await byNetwork.admit?.(at('2001:db8:1:3::1'));
      await limiter({ max: 2, windowMs: 60_000, store, ipv6Prefix: 128 }).admit?.(at('2001:db8:1:2::1'));
      expect(store.calls.map((call) => call.key)).toEqual([
        ...new Array(3).fill('ip:2001:db8:1:2::/64'),
        'ip:2001:db8:1:3::/64',
        'ip:2001:db8:1:2::1',
      ]);
    });

    it.skipIf(!REDIS)('sub with Redis: different subjects in different buckets', async () => {
      const { url } = await serve([testAuth, limiter({ max: 1, windowMs: 60_000, keyBy: 'sub', redisUrl: redis.url })]);
      expect(statuses(await sequential(url, 2, TYPENAME, { 'x-test-sub': 'alice' }))).toEqual([200, 429]);
      expect(statuses(await sequential(url, 1, TYPENAME, { 'x-test-sub': 'bob' }))).toEqual([200]);
      expect(await redis.command('GET gw:rl:sub:alice')).toBe('$1\r\n2\r\n');
      expect(await redis.command('GET gw:rl:sub:bob')).toBe('$1\r\n1\r\n');
    });
  });

  it('charges the cost computed from the operation, whatever it is named; no request is free', async () => {
    const store = ownStore(recordingStore());
    // A cost function of the operation's shape (here: 5 per root field, 0 for `__typename`).
    const cost = (request: ResolvedRequest) =>
      (request.operation?.selectionSet.selections ?? []).filter(
        (selection) => selection.kind === 'Field' && selection.name.value !== '__typename',
      ).length * 5;
    const { url } = await serve([limiter({ max: 10, windowMs: 60_000, cost, store })]);

    const expensive = await postGraphQL(url, { query: 'query Health { user(id: "user-1") { id } }' });
    const renamed = await postGraphQL(url, { query: 'query Cheap { user(id: "user-1") { id } }' });
    const free = await postGraphQL(url, { query: 'query Free { __typename }' });

    expect(expensive.headers.get('ratelimit-remaining')).toBe('5');
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get('ratelimit-remaining')).toBe('0');
    expect(free.status).toBe(429);
    // 1 for each request before it is parsed, the rest of its cost once it is resolved.
    expect(store.calls.map((call) => call.cost)).toEqual([1, 4, 1, 4, 1]);
  });

  it('counts requests that fail to parse or validate, before their documents are parsed', async () => {
    const store = ownStore(recordingStore());
    const { url } = await serve([limiter({ max: 2, windowMs: 60_000, store })]);
    expect((await postGraphQL(url, { query: '{ __typename' })).status).toBe(400);
    expect((await postGraphQL(url, { query: '{ nope }' })).status).toBe(400);
    // Over the limit: refused as such, not as the parse error this document would have been.
    const third = await postGraphQL(url, { query: '{ __typename' });
    expect(third.status).toBe(429);
    expect(third.body.errors?.[0]?.extensions?.code).toBe('REQUEST_RATE_LIMITED');
    expect(store.calls).toHaveLength(3);
  });

  it('starts a new window once the window has ended', async () => {
    let now = 0;
    const { url } = await serve([limiter({ max: 1, windowMs: 300, now: () => now })]);
    const first = await sequential(url, 2);
    expect(statuses(first)).toEqual([200, 429]);
    now += 299;
    expect((await postGraphQL(url, TYPENAME)).status).toBe(429);
    now += 1;
    expect((await postGraphQL(url, TYPENAME)).status).toBe(200);
  });

  describe('options', () => {
    function optionsError(options: unknown): PluginOptionsError {
      try {
        rateLimit(options as RateLimitOptions);
      } catch (error) {
        expect(error).toBeInstanceOf(PluginOptionsError);
        return error as PluginOptionsError;
      }
      throw new Error('expected rateLimit() to throw');
    }

    it('names every bad option at once', () => {
      const error = optionsError({
        max: 0,
        windowMs: '60s',
        keyBy: 'user',
        failureMode: 'sometimes',
        warnIntervalMs: -1,
        ipv6Prefix: 0,
        cost: { Health: 0 },
        store: {},
        redisUrl: 'http://localhost:6379',
        logger: console.log,
        maxRequests: 5,
      });
      expect(error.code).toBe('ERR_GATEWAY_PLUGIN_OPTIONS_INVALID');
      expect(error.plugin).toBe('rate-limit');
      expect(error.issues.map((issue) => issue.field).sort()).toEqual([
        'cost',
        'failureMode',
        'ipv6Prefix',
        'keyBy',
        'logger',
        'max',
        'maxRequests',
        'redisUrl',
        'redisUrl',
        'store',
        'warnIntervalMs',
        'windowMs',
      ]);
      expect(error.message).toContain('Invalid options for the rate-limit plugin');
      expect(error.message).toContain('keyBy: expected one of ip | sub | api-key | global, got "user"');
      expect(error.message).toContain('failureMode: expected one of open | closed, got "sometimes"');
      expect(error.message).toContain('redisUrl: give either store or redisUrl, not both');
      expect(error.message).toContain('maxRequests: unknown option');
    });

    it('requires max, windowMs and logger', () => {
      const error = optionsError({});
      expect(error.issues).toEqual([
        { field: 'max', message: 'is required' },
        { field: 'windowMs', message: 'is required' },
        { field: 'logger', message: 'expected a pino logger' },
      ]);
    });

    it.skipIf(!REDIS)('builds a Redis store from redisUrl and closes it when the gateway stops', async () => {
      // Each INFO runs on a connection of its own, which the count includes.
      const clients = async () => Number((await redis.command('INFO clients')).match(/connected_clients:(\d+)/)?.[1]);
      const baseline = await clients();
      const plugin = limiter({ max: 1, windowMs: 60_000, redisUrl: redis.url });
      expect(plugin.name).toBe('rate-limit');
      const { url, close } = await serve([plugin]);
      expect((await postGraphQL(url, TYPENAME)).status).toBe(200);
      expect(await redis.command('GET gw:rl:ip:127.0.0.1')).toBe('$1\r\n1\r\n');
      expect(await clients()).toBe(baseline + 1);
      await close();
      await expect.poll(clients).toBe(baseline);
    });
  });
});
