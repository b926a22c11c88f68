// Settings one subgraph may override (SUBGRAPH_<NAME>_*), read by the data sources and hot reload.

/** Subgraph names compare in lower case with `-` as `_`, since env names cannot hold `-`. */
export function subgraphKey(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** Per-subgraph settings; unset fields fall back to the supergraph URL and the gateway-wide setting. */
export interface SubgraphOverride {
  /** Replaces the URL written in the supergraph (like Apollo Router's `override_subgraph_url`). */
  readonly url?: string;
  readonly timeoutMs?: number;
  /** Replaces `subgraphMaxResponseBytes` for this subgraph. */
  readonly maxResponseBytes?: number;
  /** Replaces `subgraphDeduplicate` for this subgraph. */
  readonly deduplicate?: boolean;
  /** Each replaces the `subgraphRetry*` / `subgraphCircuit*` setting of the same name for this subgraph. */
  readonly retries?: number;
  readonly retryBackoffMs?: number;
  readonly retryBudget?: number;
  readonly retryMinPerSec?: number;
  readonly circuitBreaker?: boolean;
  readonly circuitFailureRate?: number;
  readonly circuitMinRequests?: number;
  readonly circuitCooldownMs?: number;
}
