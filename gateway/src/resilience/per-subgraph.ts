import { defaultsOf, type SettingsOf, type ValueParser } from '../settings/kinds.js';
import type { SubgraphOverride } from '../subgraph-overrides.js';
import type { CircuitBreakerOptions } from './circuit-breaker.js';
import type { SubgraphRetryOptions } from './retry-policy.js';
import { RESILIENCE_VALUES } from './settings.js';

/** The production defaults, from their schemas (see RESILIENCE_VALUES for why these). */
export const RESILIENCE_DEFAULTS = defaultsOf(RESILIENCE_VALUES);

/**
 * The gateway-wide retry and breaker settings (SUBGRAPH_RETRIES …, `subgraphDefaults.retries` …),
 * which each subgraph may override: their part of the `subgraphDefaults` group.
 */
export type ResilienceSettings = SettingsOf<typeof RESILIENCE_VALUES>;

/**
 * Each setting once, global (`SUBGRAPH_<SUFFIX>`, file key `subgraphDefaults.<key>`, before groups `formerKey`) and per subgraph
 * (`SUBGRAPH_<NAME>_<SUFFIX>`, file key `subgraphs.<name>.<key>`), in README order.
 */
export const RESILIENCE_FIELDS = [
  {
    suffix: 'RETRIES',
    key: 'retries',
    formerKey: 'subgraphRetries',
    parse: RESILIENCE_VALUES.retries,
    meaning:
      'retries of a failed fetch that belongs to a query (never a mutation), within its timeout; `0` turns them off. See [Subgraph faults](operations.md#subgraph-faults-retries-and-circuit-breaker)',
  },
  {
    suffix: 'RETRY_BACKOFF_MS',
    key: 'retryBackoffMs',
    formerKey: 'subgraphRetryBackoffMs',
    parse: RESILIENCE_VALUES.retryBackoffMs,
    meaning: 'the first retry waits a random time up to this (full jitter), doubling with each retry',
    feature: 'retries',
  },
  {
    suffix: 'RETRY_BUDGET',
    key: 'retryBudget',
    formerKey: 'subgraphRetryBudget',
    parse: RESILIENCE_VALUES.retryBudget,
    meaning: 'retries of a subgraph over 10 s may be at most this share of its requests…',
    feature: 'retries',
  },
  {
    suffix: 'RETRY_MIN_PER_SEC',
    key: 'retryMinPerSec',
    formerKey: 'subgraphRetryMinPerSec',
    parse: RESILIENCE_VALUES.retryMinPerSec,
    meaning: '…plus this many per second, so a quiet subgraph can still be retried',
    feature: 'retries',
  },
  {
    suffix: 'CIRCUIT_BREAKER',
    key: 'circuitBreaker',
    formerKey: 'subgraphCircuitBreaker',
    parse: RESILIENCE_VALUES.circuitBreaker,
    meaning:
      "a circuit breaker per subgraph: while it is open, that subgraph's fields get `SUBGRAPH_CIRCUIT_OPEN` at once",
  },
  {
    suffix: 'CIRCUIT_FAILURE_RATE',
    key: 'circuitFailureRate',
    formerKey: 'subgraphCircuitFailureRate',
    parse: RESILIENCE_VALUES.circuitFailureRate,
    meaning: "it opens when this share of a subgraph's attempts over 10 s failed…",
    feature: 'circuit-breaker',
  },
  {
    suffix: 'CIRCUIT_MIN_REQUESTS',
    key: 'circuitMinRequests',
    formerKey: 'subgraphCircuitMinRequests',
    parse: RESILIENCE_VALUES.circuitMinRequests,
    meaning: '…and there were at least this many',
    feature: 'circuit-breaker',
  },
  {
    suffix: 'CIRCUIT_COOLDOWN_MS',
    key: 'circuitCooldownMs',
    formerKey: 'subgraphCircuitCooldownMs',
    parse: RESILIENCE_VALUES.circuitCooldownMs,
    meaning: 'after this, one probe goes through (half-open): its success closes the circuit, its failure reopens it',
    feature: 'circuit-breaker',
  },
] as const satisfies readonly {
  suffix: string;
  key: keyof typeof RESILIENCE_DEFAULTS & keyof SubgraphOverride;
  formerKey: string;
  parse: ValueParser<unknown>;
  meaning: string;
  feature?: 'retries' | 'circuit-breaker';
}[];

/** One subgraph's retry and breaker settings: its overrides over the global ones. */
export function resilienceFor(
  defaults: ResilienceSettings,
  override: SubgraphOverride | undefined,
): { retry: SubgraphRetryOptions; circuitBreaker?: CircuitBreakerOptions } {
  const retry: SubgraphRetryOptions = {
    maxRetries: override?.retries ?? defaults.retries,
    backoffMs: override?.retryBackoffMs ?? defaults.retryBackoffMs,
    budgetRatio: override?.retryBudget ?? defaults.retryBudget,
    budgetMinPerSecond: override?.retryMinPerSec ?? defaults.retryMinPerSec,
  };
  if (!(override?.circuitBreaker ?? defaults.circuitBreaker)) return { retry };
  return {
    retry,
    circuitBreaker: {
      failureRate: override?.circuitFailureRate ?? defaults.circuitFailureRate,
      minRequests: override?.circuitMinRequests ?? defaults.circuitMinRequests,
      cooldownMs: override?.circuitCooldownMs ?? defaults.circuitCooldownMs,
    },
  };
}
