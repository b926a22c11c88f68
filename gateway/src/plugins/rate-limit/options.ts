import type { ResolvedRequest } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  checkKnownKeys,
  DEFAULT_IPV6_PREFIX,
  defaultsOf,
  describe,
  duration,
  integer,
  type Logger,
  OptionIssues,
  oneOf,
  withDefault,
} from '../../plugin-sdk/index.js';
import type { RateLimitStore } from './store.js';

export const PLUGIN_NAME = 'rate-limit';

export const RATE_LIMIT_KEYS = ['ip', 'sub', 'api-key', 'global'] as const;
/**
 * Who shares a bucket:
 * - `ip`: the client's network (`context.scope.ip`; an IPv6 address by its `ipv6Prefix`), key `ip:<network>`;
 * - `sub`: the JWT subject (`context.identity.subject`), key `sub:<subject>`;
 * - `api-key`: the API key's consumer (`context.identity.consumer`), key `api-key:<consumer>`;
 * - `global`: one bucket for every caller, key `global` (a ceiling on the whole gateway).
 *
 * With `sub` and `api-key`, a caller without that identity (anonymous) is counted by its network
 * (`ip:<network>`), so anonymous traffic is limited too. Every key but `api-key`'s is the gateway's
 * per-client key (`clientKey`); `api-key` and `global` are buckets shared on purpose: a quota
 * per application, a ceiling on the gateway. There is deliberately no key or
 * cost by operation name: the client chooses the name freely, so renaming an operation
 * would get a fresh bucket or a free pass. Names become trustworthy only with trusted
 * documents (an allowlist of operations), which this gateway does not have yet.
 */
export type RateLimitKey = (typeof RATE_LIMIT_KEYS)[number];

export const RATE_LIMIT_FAILURE_MODES = ['open', 'closed'] as const;

/** The options' schemas, which RATE_LIMIT_MAX, RATE_LIMIT_WINDOW… are read with too. */
export const RATE_LIMIT_VALUES = Object.freeze({
  // Required options; these defaults are RATE_LIMIT_MAX's and RATE_LIMIT_WINDOW's.
  max: withDefault(integer(1, 1_000_000_000), 600),
  windowMs: withDefault(duration(100, 86_400_000), 60_000),
  keyBy: withDefault(oneOf(RATE_LIMIT_KEYS), 'ip'),
  failureMode: withDefault(oneOf(RATE_LIMIT_FAILURE_MODES), 'open'),
  warnIntervalMs: withDefault(integer(0, 86_400_000), 30_000),
  ipv6Prefix: withDefault(integer(1, 128), DEFAULT_IPV6_PREFIX),
});
/** The defaults of the optional options, from their schemas. */
export const RATE_LIMIT_DEFAULTS = defaultsOf(RATE_LIMIT_VALUES);
/** What happens to a request when the store fails (Redis down or too slow). */
export type RateLimitFailureMode = (typeof RATE_LIMIT_FAILURE_MODES)[number];

export interface RateLimitOptions {
  /** Requests allowed per key and window (the sum of their costs). Required; an integer >= 1. */
  max: number;
  /** Length of the fixed window in ms, opened by a key's first request. Required; an integer >= 1. */
  windowMs: number;
  /** Who shares a bucket (see `RateLimitKey`). Default: `'ip'`. */
  keyBy?: RateLimitKey;
  /**
   * What one request costs, computed from the operation itself (never from its
   * client-chosen name): for example demand control's estimate
   * (`RATE_LIMIT_COST=estimated`). Rounded up, and at least 1, so no request is free.
   * Default: every request costs 1.
   */
  cost?: (request: ResolvedRequest) => number;
  /**
   * Where counters live. Default: a `MemoryStore` (per process), or a `RedisStore` when
   * `redisUrl` is given. A store passed here is yours to close; the ones the plugin builds
   * are closed when the gateway stops. Give `store` or `redisUrl`, not both.
   */
  store?: RateLimitStore;
  /** Builds a `RedisStore` with its defaults (key prefix `gw:rl:`, 500 ms command timeout). */
  redisUrl?: string;
  /**
   * When the store fails: `'open'` lets the request through and logs a warning (at most one
   * per `warnIntervalMs`); `'closed'` answers 503 `RATE_LIMIT_UNAVAILABLE`. Default: `'open'`.
   */
  failureMode?: RateLimitFailureMode;
  /** Least time between two "store unavailable" warnings. Default: 30 000 ms. */
  warnIntervalMs?: number;
  /** The IPv6 network one client is counted by (CLIENT_IPV6_PREFIX). Default: 64. */
  ipv6Prefix?: number;
  /** Where store failures are reported. Required. */
  logger: Logger;
  /**
   * The clock, in ms, of the warnings' interval and of the `MemoryStore` the plugin builds.
   * Default: `Date.now`. Tests pass their own to move time.
   */
  now?: () => number;
}

const KNOWN = [
  'max',
  'windowMs',
  'keyBy',
  'cost',
  'store',
  'redisUrl',
  'failureMode',
  'warnIntervalMs',
  'ipv6Prefix',
  'logger',
  'now',
] as const;

export interface Settings {
  max: number;
  windowMs: number;
  keyBy: RateLimitKey;
  cost: ((request: ResolvedRequest) => number) | undefined;
  failureMode: RateLimitFailureMode;
  warnIntervalMs: number;
  ipv6Prefix: number;
}

export function checkOptions(options: RateLimitOptions): Settings {
  const issues = new OptionIssues();
  checkKnownKeys(issues, asOptionsObject(PLUGIN_NAME, options), KNOWN);
  issues.check('max', options.max, RATE_LIMIT_VALUES.max, true);
  issues.check('windowMs', options.windowMs, RATE_LIMIT_VALUES.windowMs, true);
  issues.check('keyBy', options.keyBy, RATE_LIMIT_VALUES.keyBy);
  issues.check('failureMode', options.failureMode, RATE_LIMIT_VALUES.failureMode);
  issues.check('warnIntervalMs', options.warnIntervalMs, RATE_LIMIT_VALUES.warnIntervalMs);
  issues.check('ipv6Prefix', options.ipv6Prefix, RATE_LIMIT_VALUES.ipv6Prefix);
  if (options.now !== undefined && typeof options.now !== 'function') {
    issues.add('now', 'expected a function returning milliseconds');
  }

  if (options.cost !== undefined && typeof options.cost !== 'function') {
    issues.add('cost', `expected a function of the resolved request, got ${describe(options.cost)}`);
  }

  if (options.store !== undefined && options.redisUrl !== undefined) {
    issues.add('redisUrl', 'give either store or redisUrl, not both');
  }
  if (options.store !== undefined && !isStore(options.store)) {
    issues.add('store', 'expected a RateLimitStore (an object with hit() and close())');
  }
  if (options.redisUrl !== undefined && !isRedisUrl(options.redisUrl)) {
    issues.add('redisUrl', `expected a redis:// or rediss:// URL`);
  }
  if (typeof options.logger?.warn !== 'function' || typeof options.logger?.child !== 'function') {
    issues.add('logger', 'expected a pino logger');
  }
  issues.throwIfAny(PLUGIN_NAME);

  return {
    max: options.max,
    windowMs: options.windowMs,
    keyBy: options.keyBy ?? RATE_LIMIT_DEFAULTS.keyBy,
    cost: options.cost,
    failureMode: options.failureMode ?? RATE_LIMIT_DEFAULTS.failureMode,
    warnIntervalMs: options.warnIntervalMs ?? RATE_LIMIT_DEFAULTS.warnIntervalMs,
    ipv6Prefix: options.ipv6Prefix ?? RATE_LIMIT_DEFAULTS.ipv6Prefix,
  };
}

function isStore(value: unknown): value is RateLimitStore {
  const store = value as Partial<RateLimitStore> | null;
  return (
    typeof store === 'object' && store !== null && typeof store.hit === 'function' && typeof store.close === 'function'
  );
}

export function isRedisUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}
