import { boolean, integer, share } from '../settings/values.js';

/**
 * The retry and breaker settings' schemas, one each: the SUBGRAPH_* variables (global and per
 * subgraph) are read with them, and the data source's options are checked with them.
 */
export const RESILIENCE_VALUES = Object.freeze({
  retries: integer(0, 10),
  retryBackoffMs: integer(1, 60_000),
  retryBudget: share(0, 1),
  retryMinPerSec: integer(0, 100_000),
  circuitBreaker: boolean,
  circuitFailureRate: share(0, 1, true),
  circuitMinRequests: integer(1, 1_000_000),
  circuitCooldownMs: integer(1, 3_600_000),
});
