import { GraphQLError } from 'graphql';
import type { GatewayPlugin, Identity } from '../../plugin-sdk/index.js';
import {
  ClientErrorCode,
  clientKey,
  httpError,
  type LegacyCode,
  type Logger,
  LogThrottle,
} from '../../plugin-sdk/index.js';
import { refuseBeforeParsing } from '../shared/refuse-before-parsing.js';
import { MemoryStore } from './memory-store.js';
import {
  checkOptions,
  PLUGIN_NAME,
  type RateLimitFailureMode,
  type RateLimitKey,
  type RateLimitOptions,
} from './options.js';
import { RedisStore } from './redis-store.js';
import type { RateLimitHit } from './store.js';

export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export {
  isRedisUrl,
  RATE_LIMIT_DEFAULTS,
  RATE_LIMIT_FAILURE_MODES,
  RATE_LIMIT_KEYS,
  type RateLimitFailureMode,
  type RateLimitOptions,
} from './options.js';
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export type { RateLimitHit, RateLimitStore } from './store.js';

/**
 * Limits requests per key (IP, JWT subject, API key consumer, or one global bucket) in a fixed
 * window. Every request is charged 1 before its document is parsed, so the expensive failures
 * (a document that takes long to parse or validate, one refused for its cost) are counted too,
 * and a client over its limit gets 429 `REQUEST_RATE_LIMITED` (with `Retry-After` and `RateLimit-*`
 * headers) without its document being parsed. With `cost`, the rest of the operation's cost
 * is charged once it is resolved, before any subgraph is called. A rejected request still
 * counts toward its window. Allowed requests get `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset` (seconds) headers.
 */
export function rateLimit(options: RateLimitOptions): GatewayPlugin {
  const settings = checkOptions(options);
  const { max, windowMs, keyBy, cost: costOf, failureMode, warnIntervalMs, ipv6Prefix } = settings;
  const ownsStore = options.store === undefined;
  const store =
    options.store ??
    (options.redisUrl !== undefined
      ? new RedisStore({ url: options.redisUrl })
      : new MemoryStore(options.now ? { now: options.now } : {}));
  const logger = options.logger.child({ plugin: PLUGIN_NAME });
  const reportFailure = failureReporter(logger, failureMode, warnIntervalMs, options.now);

  /** Charges `cost` to `key`: the headers of an allowed request, or the refusal. */
  const charge = async (key: string, cost: number): Promise<RateLimitHeaders | GraphQLError | undefined> => {
    let hit: RateLimitHit;
    try {
      hit = await store.hit(key, cost, windowMs);
    } catch (error) {
      reportFailure(error);
      if (failureMode === 'open') return undefined;
      return httpError(
        ClientErrorCode.RATE_LIMIT_UNAVAILABLE,
        'Rate limiting is unavailable, so the request was refused; try again later',
      );
    }
    const headers = rateLimitHeaders(max, hit);
    if (hit.count <= max) return headers;
    return httpError(
      ClientErrorCode.REQUEST_RATE_LIMITED,
      `Rate limit exceeded: at most ${max} per ${formatWindow(windowMs)}; retry in ${headers['ratelimit-reset']} s`,
      { 'retry-after': headers['ratelimit-reset'], ...headers },
      { legacyCode: 'RATE_LIMITED' satisfies LegacyCode },
    );
  };

  return {
    name: PLUGIN_NAME,
    // A preflight or a reservation costs 1, like a request refused before parsing.
    async admit(scope) {
      const result = await charge(keyFor(keyBy, scope.identity ?? {}, scope.ip, ipv6Prefix), 1);
      if (result instanceof GraphQLError) throw result;
    },
    apollo: {
      async requestDidStart({ contextValue, request }) {
        const key = keyFor(keyBy, contextValue.identity, contextValue.scope.ip, ipv6Prefix);
        // Before parsing: every request pays at least 1, whatever becomes of its document.
        const first = await charge(key, 1);
        // Refused: the document is never parsed or validated.
        if (first instanceof GraphQLError) return refuseBeforeParsing(request, contextValue.scope, first);
        // Set once the request is allowed and counted; written on the response at the end.
        let allowedHeaders = first;
        return {
          async didResolveOperation(resolved) {
            if (!costOf) return;
            const rest = Math.max(1, Math.ceil(costOf(resolved))) - 1;
            if (rest === 0) return;
            const result = await charge(key, rest);
            if (result instanceof GraphQLError) {
              allowedHeaders = undefined; // the refusal carries its own RateLimit-* headers
              throw result;
            }
            allowedHeaders = result ?? allowedHeaders;
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

/** The bucket: the gateway's per-client key for `ip` and `sub`; `api-key` and `global` share one on purpose. */
function keyFor(keyBy: RateLimitKey, identity: Identity, ip: string, ipv6Prefix: number): string {
  switch (keyBy) {
    case 'global':
      return 'global';
    case 'sub':
      return clientKey(ip, identity.subject ? { subject: identity.subject } : undefined, ipv6Prefix);
    case 'api-key':
      if (identity.consumer) return `api-key:${identity.consumer}`;
      break;
    case 'ip':
      break;
  }
  return clientKey(ip, undefined, ipv6Prefix);
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
function failureReporter(
  logger: Logger,
  failureMode: RateLimitFailureMode,
  intervalMs: number,
  now: (() => number) | undefined,
) {
  const throttle = new LogThrottle(1, intervalMs, now);
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
