import { boolean, integer, type ValueParser } from '../settings/values.js';
import type { SubgraphOverride } from '../subgraph-overrides.js';
import type { CircuitBreakerOptions } from './circuit-breaker.js';
import type { SubgraphRetryOptions } from './retry-policy.js';

/**
 * Production defaults. One retry: it covers what retries are for (a keep-alive socket
 * the subgraph closed as it was reused, a pod restarting behind its Service, since the
 * retry opens a new connection); a second rarely helps and lengthens the tail. The budget
 * (10 % of requests plus 10 per second, over 10 s) keeps retries from multiplying an
 * outage. The breaker opens when half the attempts of 10 s fail, once there were 20.
 */
export const RESILIENCE_DEFAULTS = Object.freeze({
  retries: 1,
  retryBackoffMs: 50,
  retryBudget: 0.1,
  retryMinPerSec: 10,
  circuitBreaker: true,
  circuitFailureRate: 0.5,
  circuitMinRequests: 20,
  circuitCooldownMs: 5_000,
});

/** The gateway-wide settings (SUBGRAPH_RETRIES …), which each subgraph may override. */
export interface ResilienceSettings {
  /** Retries of a failed query fetch (never a mutation's), within its timeout; 0 turns them off. */
  readonly subgraphRetries: number;
  /** The first retry waits up to this (full jitter), doubling with each retry. */
  readonly subgraphRetryBackoffMs: number;
  /** Retries may be at most this share of a subgraph's requests over 10 s… */
  readonly subgraphRetryBudget: number;
  /** …plus this many per second. */
  readonly subgraphRetryMinPerSec: number;
  /** A circuit breaker per subgraph (SUBGRAPH_CIRCUIT_OPEN while open). */
  readonly subgraphCircuitBreaker: boolean;
  /** It opens when this share of the attempts over 10 s failed… */
  readonly subgraphCircuitFailureRate: number;
  /** …and there were at least this many. */
  readonly subgraphCircuitMinRequests: number;
  /** It lets one probe through this long after opening. */
  readonly subgraphCircuitCooldownMs: number;
}

/** A number in [min, max] (above `min` when `minExclusive`), from `0.1` or a number in the file. */
export function share(min: number, max: number, minExclusive = false): ValueParser<number> {
  return (raw) => {
    const value = typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
    const ok = typeof value === 'number' && (minExclusive ? value > min : value >= min) && value <= max;
    return ok
      ? { ok: true, value }
      : {
          ok: false,
          message: `expected a number ${minExclusive ? 'above' : 'from'} ${min} ${minExclusive ? 'up ' : ''}to ${max} (e.g. 0.1), got ${JSON.stringify(raw)}`,
        };
  };
}

/**
 * Each setting once, global (`SUBGRAPH_<SUFFIX>`, file key `configKey`) and per subgraph
 * (`SUBGRAPH_<NAME>_<SUFFIX>`, file key `subgraphs.<name>.<key>`), in README order.
 */
export const RESILIENCE_FIELDS = [
  { suffix: 'RETRIES', key: 'retries', configKey: 'subgraphRetries', parse: integer(0, 10) },
  { suffix: 'RETRY_BACKOFF_MS', key: 'retryBackoffMs', configKey: 'subgraphRetryBackoffMs', parse: integer(1, 60_000) },
  { suffix: 'RETRY_BUDGET', key: 'retryBudget', configKey: 'subgraphRetryBudget', parse: share(0, 1) },
  {
    suffix: 'RETRY_MIN_PER_SEC',
    key: 'retryMinPerSec',
    configKey: 'subgraphRetryMinPerSec',
    parse: integer(0, 100_000),
  },
  { suffix: 'CIRCUIT_BREAKER', key: 'circuitBreaker', configKey: 'subgraphCircuitBreaker', parse: boolean },
  {
    suffix: 'CIRCUIT_FAILURE_RATE',
    key: 'circuitFailureRate',
    configKey: 'subgraphCircuitFailureRate',
    parse: share(0, 1, true),
  },
  {
    suffix: 'CIRCUIT_MIN_REQUESTS',
    key: 'circuitMinRequests',
    configKey: 'subgraphCircuitMinRequests',
    parse: integer(1, 1_000_000),
  },
  {
    suffix: 'CIRCUIT_COOLDOWN_MS',
    key: 'circuitCooldownMs',
    configKey: 'subgraphCircuitCooldownMs',
    parse: integer(1, 3_600_000),
  },
] as const satisfies readonly {
  suffix: string;
  key: keyof typeof RESILIENCE_DEFAULTS & keyof SubgraphOverride;
  configKey: keyof ResilienceSettings;
  parse: ValueParser<unknown>;
}[];

/** One subgraph's retry and breaker settings: its overrides over the global ones. */
export function resilienceFor(
  config: ResilienceSettings,
  override: SubgraphOverride | undefined,
): { retry: SubgraphRetryOptions; circuitBreaker?: CircuitBreakerOptions } {
  const retry: SubgraphRetryOptions = {
    maxRetries: override?.retries ?? config.subgraphRetries,
    backoffMs: override?.retryBackoffMs ?? config.subgraphRetryBackoffMs,
    budgetRatio: override?.retryBudget ?? config.subgraphRetryBudget,
    budgetMinPerSecond: override?.retryMinPerSec ?? config.subgraphRetryMinPerSec,
  };
  if (!(override?.circuitBreaker ?? config.subgraphCircuitBreaker)) return { retry };
  return {
    retry,
    circuitBreaker: {
      failureRate: override?.circuitFailureRate ?? config.subgraphCircuitFailureRate,
      minRequests: override?.circuitMinRequests ?? config.subgraphCircuitMinRequests,
      cooldownMs: override?.circuitCooldownMs ?? config.subgraphCircuitCooldownMs,
    },
  };
}
