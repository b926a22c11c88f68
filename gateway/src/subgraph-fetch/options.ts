import type { GatewayPlugin } from '../contract/index.js';
import type { Logger } from '../logger.js';
import type { CircuitBreakerOptions } from '../resilience/circuit-breaker.js';
import type { SubgraphRetryOptions } from '../resilience/retry-policy.js';
import type { SubgraphErrors } from '../subgraph-overrides.js';

export interface SubgraphDataSourceOptions {
  /** Subgraph name, as in the supergraph; shown to clients in error messages (never the URL). */
  name: string;
  url: string;
  /** The fetch is aborted after this, and the affected fields get GATEWAY_TIMEOUT. */
  timeoutMs: number;
  /** Max sockets to this subgraph. */
  connections: number;
  /** Idle sockets are closed after this. Keep it below the subgraph's keep-alive timeout. */
  keepAliveMs: number;
  /** Larger answers are aborted mid-read and the affected fields get SUBGRAPH_RESPONSE_TOO_LARGE. Default: no limit. */
  maxResponseBytes?: number;
  /** Plugins whose subgraph hooks run on every operation's request and response, in order. */
  plugins?: readonly GatewayPlugin[];
  /** Failed fetches (code, duration, request id; never a body) and plugin hook failures are logged here. */
  logger?: Logger;
  /**
   * Retries of failed fetches that belong to client queries (never mutations), within
   * `timeoutMs` and a retry budget. Default: no retries.
   */
  retry?: SubgraphRetryOptions;
  /** A circuit breaker for this subgraph; it answers SUBGRAPH_CIRCUIT_OPEN while open. Default: none. */
  circuitBreaker?: CircuitBreakerOptions;
  /**
   * Identical query fetches in flight at the same time (same body, same headers but the
   * request id and trace context) share one request; each caller gets its own copy.
   * Never mutations. Default: false.
   */
  deduplicate?: boolean;
  /**
   * Repeated `_entities` representations in one fetch are sent once and the answers spread
   * back over every position (dedup/representations.ts). Default: true.
   */
  deduplicateRepresentations?: boolean;
  /**
   * What clients see of the errors the subgraph writes (SUBGRAPH_ERRORS): `mask` redacts every
   * message, `codes` those whose code is not client-safe, `all` none. Default: `mask`.
   */
  errors?: SubgraphErrors;
  /**
   * The clock, in ms, of the circuit breaker (cool-down, window) and the retry budget.
   * Default: `performance.now()`. Tests pass their own to move time.
   */
  now?: () => number;
}
