import { boolean, integer, share, withDefault } from '../settings/kinds.js';

/**
 * The retry and breaker settings' schemas, one each: the SUBGRAPH_* variables (global and per
 * subgraph) are read with them, and the data source's options are checked with them.
 */
// Production defaults. One retry: it covers what retries are for (a keep-alive socket the
// subgraph closed as it was reused, a pod restarting behind its Service, since the retry opens a
// new connection); a second rarely helps and lengthens the tail. The budget (10 % of requests
// plus 10 per second, over 10 s) keeps retries from multiplying an outage. The breaker opens when
// half the attempts of 10 s fail, once there were 20.
export const RESILIENCE_VALUES = Object.freeze({
  retries: withDefault(integer(0, 10), 1),
  retryBackoffMs: withDefault(integer(1, 60_000), 50),
  retryBudget: withDefault(share(0, 1), 0.1),
  retryMinPerSec: withDefault(integer(0, 100_000), 10),
  circuitBreaker: withDefault(boolean, true),
  circuitFailureRate: withDefault(share(0, 1, true), 0.5),
  circuitMinRequests: withDefault(integer(1, 1_000_000), 20),
  circuitCooldownMs: withDefault(integer(1, 3_600_000), 5_000),
});
