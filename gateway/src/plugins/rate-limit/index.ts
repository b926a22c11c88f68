import type { GatewayContext } from '../../context.js';
import type { ResolvedRequest } from '../../demand-control/cost-estimator.js';
import { ClientErrorCode } from '../../error-registry.js';
import { LogThrottle } from '../../log-throttle.js';
import type { Logger } from '../../logger.js';
import { httpError } from '../http-error.js';
import type { GatewayPlugin } from '../types.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import type { RateLimitHit, RateLimitStore } from './store.js';
import { describe, isRedisUrl, OptionIssues, PLUGIN_NAME } from './validate.js';

export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export type { RateLimitHit, RateLimitStore } from './store.js';

export const RATE_LIMIT_KEYS = ['ip', 'sub', 'api-key', 'global'] as const;
/**
 * Who shares a bucket:
 * - `ip`: the client address (`context.scope.ip`), key `ip:<address>`;
 * - `sub`: the JWT subject (`context.identity.subject`), key `sub:<subject>`;
 * - `api-key`: the API key's consumer (`context.identity.consumer`), key `api-key:<consumer>`;
 * - `global`: one bucket for every caller, key `global` (a ceiling on the whole gateway).
 *
 * With `sub` and `api-key`, a caller without that identity (anonymous) is counted by IP
 * (`ip:<address>`), so anonymous traffic is limited too. There is deliberately no key or
 * cost by operation name: the client chooses the name freely, so renaming an operation
 * would get a fresh bucket or a free pass. Names become trustworthy only with trusted
 * documents (an allowlist of operations), which this gateway does not have yet.
 */
export type RateLimitKey = (typeof RATE_LIMIT_KEYS)[number];

export const RATE_LIMIT_FAILURE_MODES = ['open', 'closed'] as const;
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
  /** Where store failures are reported. Required. */
  logger: Logger;
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
  'logger',
] as const;

/**
 * Limits requests per key (IP, JWT subject, API key consumer, or one global bucket) in a fixed
 * window. It counts once the operation is resolved, before any subgraph is called, so a
 * rejected request (429 `RATE_LIMITED`, with `Retry-After` and `RateLimit-*` headers) costs
 * the subgraphs nothing. Requests that fail to parse or validate are not counted. A rejected
 * request still counts toward its window. Allowed requests get `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds) headers.
 */
export function rateLimit(options: RateLimitOptions): GatewayPlugin {
  const settings = checkOptions(options);
  const { max, windowMs, keyBy, cost: costOf, failureMode, warnIntervalMs } = settings;
  const ownsStore = options.store === undefined;
  const store =
    options.store ?? (options.redisUrl !== undefined ? new RedisStore({ url: options.redisUrl }) : new MemoryStore());
  const logger = options.logger.child({ plugin: PLUGIN_NAME });
  const reportFailure = failureReporter(logger, failureMode, warnIntervalMs);

  return {
    name: PLUGIN_NAME,
    apollo: {
      async requestDidStart({ contextValue }) {
        // Set once the request is allowed and counted; written on the response at the end.
        let allowedHeaders: RateLimitHeaders | undefined;
        return {
          async didResolveOperation(request) {
            const cost = costOf ? Math.max(1, Math.ceil(costOf(request))) : 1;
            let hit: RateLimitHit;
            try {
              hit = await store.hit(keyFor(keyBy, contextValue), cost, windowMs);
            } catch (error) {
              reportFailure(error);
              if (failureMode === 'open') return;
              throw httpError(
                ClientErrorCode.RATE_LIMIT_UNAVAILABLE,
                'Rate limiting is unavailable, so the request was refused; try again later',
              );
            }
            const headers = rateLimitHeaders(max, hit);
            if (hit.count > max) {
              throw httpError(
                ClientErrorCode.RATE_LIMITED,
                `Rate limit exceeded: at most ${max} per ${formatWindow(windowMs)}; retry in ${headers['ratelimit-reset']} s`,
                { 'retry-after': headers['ratelimit-reset'], ...headers },
              );
            }
            allowedHeaders = headers;
          },
          async willSendResponse({ response }) {
            if (!allowedHeaders) return;
            for (const [name, value] of Object.entries(allowedHeaders)) response.http.headers.set(name, value);
          },
        };
      },
    },
    async close() {
      if (ownsStore) await store.close();
    },
  };
}

interface Settings {
  max: number;
  windowMs: number;
  keyBy: RateLimitKey;
  cost: ((request: ResolvedRequest) => number) | undefined;
  failureMode: RateLimitFailureMode;
  warnIntervalMs: number;
}

function checkOptions(options: RateLimitOptions): Settings {
  const issues = new OptionIssues();
  if (typeof options !== 'object' || options === null) {
    issues.add('options', `expected an object, got ${describe(options)}`);
    issues.throwIfAny();
  }
  issues.unknownKeys('', options, KNOWN);
  issues.integer('max', options.max, 1, Number.MAX_SAFE_INTEGER, true);
  issues.integer('windowMs', options.windowMs, 1, 2 ** 31 - 1, true);
  issues.oneOf('keyBy', options.keyBy, RATE_LIMIT_KEYS);
  issues.oneOf('failureMode', options.failureMode, RATE_LIMIT_FAILURE_MODES);
  issues.integer('warnIntervalMs', options.warnIntervalMs, 0);

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
  issues.throwIfAny();

  return {
    max: options.max,
    windowMs: options.windowMs,
    keyBy: options.keyBy ?? 'ip',
    cost: options.cost,
    failureMode: options.failureMode ?? 'open',
    warnIntervalMs: options.warnIntervalMs ?? 30_000,
  };
}

function isStore(value: unknown): value is RateLimitStore {
  const store = value as Partial<RateLimitStore> | null;
  return (
    typeof store === 'object' && store !== null && typeof store.hit === 'function' && typeof store.close === 'function'
  );
}

function keyFor(keyBy: RateLimitKey, context: GatewayContext): string {
  switch (keyBy) {
    case 'global':
      return 'global';
    case 'sub':
      if (context.identity.subject) return `sub:${context.identity.subject}`;
      break;
    case 'api-key':
      if (context.identity.consumer) return `api-key:${context.identity.consumer}`;
      break;
    case 'ip':
      break;
  }
  return `ip:${context.scope.ip}`;
}

interface RateLimitHeaders extends Record<string, string> {
  'ratelimit-limit': string;
  'ratelimit-remaining': string;
  'ratelimit-reset': string;
}

function rateLimitHeaders(max: number, hit: RateLimitHit): RateLimitHeaders {
  return {
    'ratelimit-limit': String(max),
    'ratelimit-remaining': String(Math.max(0, max - hit.count)),
    // Whole seconds, rounded up and at least 1, so a client that waits that long is in a new window.
    'ratelimit-reset': String(Math.max(1, Math.ceil(hit.resetInMs / 1000))),
  };
}

function formatWindow(windowMs: number): string {
  return windowMs % 1000 === 0 ? `${windowMs / 1000} s` : `${windowMs} ms`;
}

/** Logs a store failure at most once per interval, with how many were not logged since the last line. */
function failureReporter(logger: Logger, failureMode: RateLimitFailureMode, intervalMs: number) {
  const throttle = new LogThrottle(1, intervalMs);
  const outcome = failureMode === 'open' ? 'requests are allowed' : 'requests are refused with 503';
  return (error: unknown) => {
    const suppressed = throttle.take();
    if (suppressed === undefined) return;
    logger.warn(
      { err: error, failureMode, suppressedSinceLastWarning: suppressed },
      `rate-limit store unavailable, ${outcome} (failure mode ${failureMode})`,
    );
  };
}
