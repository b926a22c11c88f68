import { Redis } from 'ioredis';
import {
  checkKnownKeys,
  integer,
  OptionIssues,
  optionalValue,
  ProbingBreaker,
  TIMED_OUT,
  withDefault,
  withinDeadline,
} from '../../plugin-sdk/index.js';
import { isRedisUrl, PLUGIN_NAME } from './options.js';
import type { RateLimitHit, RateLimitStore } from './store.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` (TLS). Required. */
  url: string;
  /** Prepended to every key, e.g. `gw:rl:ip:10.0.0.7`. Default: `gw:rl:`. */
  keyPrefix?: string;
  /**
   * How long one hit may wait for Redis's answer before it fails (and the plugin applies its
   * failure mode). While the first connection is still being made (its attempts retried
   * included) a hit may also wait up to this long for it, so a hit settles within about twice
   * this. Default: 500 ms.
   */
  commandTimeoutMs?: number;
  /** How long one connection attempt may take. Default: 2 000 ms. */
  connectTimeoutMs?: number;
  /**
   * Reconnection never stops (so the limiter recovers when Redis comes back), but the delay
   * between attempts grows from 50 ms up to this. Hits fail at once while disconnected.
   * Default: 2 000 ms.
   */
  maxReconnectDelayMs?: number;
  /**
   * After this many hits in a row failed (timed out: a frozen Redis), hits fail at once
   * instead of each waiting `commandTimeoutMs`, while Redis is probed in the background every
   * `probeIntervalMs`; the first answer to a probe ends it. Default: 3.
   */
  failuresBeforeSkip?: number;
  /** How often a Redis being skipped is probed (PING). Default: 1 000 ms. */
  probeIntervalMs?: number;
}

/** The tuning options' schemas and defaults: a hung Redis costs a request at most 500 ms. */
const REDIS_STORE_VALUES = Object.freeze({
  commandTimeoutMs: withDefault(integer(1, 60_000), 500),
  connectTimeoutMs: withDefault(integer(1, 60_000), 2_000),
  maxReconnectDelayMs: withDefault(integer(1, 60_000), 2_000),
  failuresBeforeSkip: withDefault(integer(1, 1000), 3),
  probeIntervalMs: withDefault(integer(10, 60_000), 1_000),
});

const KNOWN = [
  'url',
  'keyPrefix',
  'commandTimeoutMs',
  'connectTimeoutMs',
  'maxReconnectDelayMs',
  'failuresBeforeSkip',
  'probeIntervalMs',
] as const;

/**
 * One round trip, atomic on the server: add the cost, start the window's expiry on its
 * first hit (or if the key somehow has none), and read what is left of the window.
 */
const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { count, ttl }
`;

type HitCommand = (key: string, cost: number, windowMs: number) => Promise<[number, number]>;

/**
 * Counters in Redis, shared by every gateway instance and kept across gateway restarts.
 * Built for a Redis that may fail: no offline queue (a hit fails at once while the
 * connection is down), a short command timeout (a hung Redis cannot hang a request),
 * in-flight commands are never re-sent after a reconnect (a hit is never counted twice).
 */
export class RedisStore implements RateLimitStore {
  readonly #client: Redis;
  readonly #keyPrefix: string;
  readonly #commandTimeoutMs: number;
  readonly #hit: HitCommand;
  /** Skips a Redis that stopped answering and probes it in the background. */
  readonly #breaker: ProbingBreaker;
  #lastError: Error | undefined;
  #connecting: Promise<void> | undefined;
  /** Set at the first `ready`: until then a lost connection is the first one still being made. */
  #wasReady = false;

  constructor(options: RedisStoreOptions) {
    const issues = new OptionIssues('RedisStore.');
    checkKnownKeys(issues, options, KNOWN);
    if (!isRedisUrl(options.url)) issues.add('url', 'expected a redis:// or rediss:// URL');
    if (options.keyPrefix !== undefined && typeof options.keyPrefix !== 'string') {
      issues.add('keyPrefix', 'expected a string');
    }
    const raw = options as unknown as Record<string, unknown>;
    const value = <K extends keyof typeof REDIS_STORE_VALUES>(key: K) =>
      optionalValue(issues, raw, key, REDIS_STORE_VALUES[key]) as number;
    this.#commandTimeoutMs = value('commandTimeoutMs');
    const connectTimeoutMs = value('connectTimeoutMs');
    const maxReconnectDelayMs = value('maxReconnectDelayMs');
    const failuresBeforeSkip = value('failuresBeforeSkip');
    const probeIntervalMs = value('probeIntervalMs');
    issues.throwIfAny(PLUGIN_NAME);

    this.#keyPrefix = options.keyPrefix ?? 'gw:rl:';
    this.#client = new Redis(options.url, {
      enableOfflineQueue: false,
      // A backstop only: a hit's own deadline (withinDeadline) is what bounds it, judged after the loop reads what arrived.
      commandTimeout: this.#commandTimeoutMs * 10,
      connectTimeout: connectTimeoutMs,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 16), maxReconnectDelayMs),
      scripts: { gatewayRateLimitHit: { lua: HIT_SCRIPT, numberOfKeys: 1 } },
    });
    // Without a listener ioredis prints every connection error; the plugin reports failed hits.
    this.#client.on('error', (error: Error) => {
      this.#lastError = error;
    });
    this.#client.on('ready', () => {
      this.#wasReady = true;
      this.#lastError = undefined;
    });
    // `scripts` registers the command (EVALSHA, falling back to EVAL once per connection).
    this.#hit = (this.#client as unknown as { gatewayRateLimitHit: HitCommand }).gatewayRateLimitHit.bind(this.#client);
    this.#breaker = new ProbingBreaker({ failuresBeforeSkip, probeIntervalMs, probe: () => this.#client.ping() });
  }

  async hit(key: string, cost: number, windowMs: number): Promise<RateLimitHit> {
    // A Redis that stopped answering costs each request nothing until a probe hears it again.
    if (this.#breaker.skipping) throw new Error('Redis is skipped: it stopped answering; probing it in the background');
    try {
      await this.#connected();
      const answer = await withinDeadline(this.#hit(this.#keyPrefix + key, cost, windowMs), this.#commandTimeoutMs);
      if (answer === TIMED_OUT) throw new Error(`Redis timed out: no answer within ${this.#commandTimeoutMs} ms`);
      const [count, ttl] = answer;
      this.#breaker.succeeded();
      return { count: Number(count), resetInMs: Math.max(0, Number(ttl)) };
    } catch (error) {
      this.#breaker.failed();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#breaker.close();
    if (this.#client.status === 'ready') {
      const timer = setTimeout(() => this.#client.disconnect(), this.#commandTimeoutMs);
      await this.#client.quit().catch(() => undefined);
      clearTimeout(timer);
    }
    this.#client.disconnect();
  }

  /**
   * Resolves once the client can send. While a connection is being made, hits share one wait
   * for it of at most `commandTimeoutMs`; while Redis is known to be down this fails at once.
   * Until the first connection is ready, a lost attempt does not end the wait: ioredis drops a
   * connection whose handshake (INFO) outlived `commandTimeoutMs`, which happens when the
   * gateway's own start keeps the event loop busy that long, and the next attempt follows in 100 ms.
   */
  #connected(): Promise<void> {
    const client = this.#client;
    if (client.status === 'ready') return Promise.resolve();
    const connecting = client.status === 'wait' || client.status === 'connecting' || client.status === 'connect';
    const firstConnection = !this.#wasReady && (client.status === 'close' || client.status === 'reconnecting');
    if (!connecting && !firstConnection) return Promise.reject(this.#unavailable());
    this.#connecting ??= new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        client.off('ready', onReady);
        client.off('close', onClose);
        client.off('end', onEnd);
        this.#connecting = undefined;
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => done();
      const onClose = () => {
        if (this.#wasReady) done(this.#unavailable());
      };
      const onEnd = () => done(this.#unavailable());
      const timer = setTimeout(() => done(this.#unavailable()), this.#commandTimeoutMs);
      client.on('ready', onReady);
      client.on('close', onClose);
      client.on('end', onEnd);
      if (client.status === 'wait') client.connect().catch(() => undefined);
    });
    return this.#connecting;
  }

  #unavailable(): Error {
    const reason = this.#lastError ? `: ${this.#lastError.message}` : '';
    return new Error(`Redis is not connected (${this.#client.status})${reason}`, { cause: this.#lastError });
  }
}
