// Settings one subgraph may override (SUBGRAPH_<NAME>_*), read by the data sources and hot reload.
import { boolean, byteSize, integer, oneOf, withDefault } from './settings/kinds.js';

/** SUBGRAPH_ERRORS: what of a subgraph's own error messages reaches clients (subgraph-fetch/subgraph-errors.ts). */
export const SUBGRAPH_ERROR_MODES = ['mask', 'codes', 'all'] as const;
export type SubgraphErrors = (typeof SUBGRAPH_ERROR_MODES)[number];

/**
 * The fetch settings every subgraph gets (`subgraphDefaults`, SUBGRAPH_TIMEOUT_MS …), by config
 * name; a subgraph's overrides of the timeout, size limit and deduplication are read with them too.
 */
export const SUBGRAPH_FETCH_VALUES = Object.freeze({
  timeoutMs: withDefault(integer(1, 600_000), 30_000),
  poolConnections: withDefault(integer(1, 10_000), 128),
  keepAliveMs: withDefault(integer(100, 600_000), 30_000),
  // Below MAX_RESPONSE_BYTES, so one oversized subgraph costs its own fields, not the whole answer.
  maxResponseBytes: withDefault(byteSize(1024, 1024 ** 3), 5 * 1024 ** 2),
  deduplicate: withDefault(boolean, false),
  deduplicateRepresentations: withDefault(boolean, true),
  // Redacted in production, as Apollo Router does by default; as written in development.
  errors: withDefault(oneOf(SUBGRAPH_ERROR_MODES), 'mask', { development: 'all' }),
});

/** Subgraph names compare in lower case with `-` as `_`, since env names cannot hold `-`. */
export function subgraphKey(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** Per-subgraph settings; unset fields fall back to the supergraph URL and the gateway-wide setting. */
export interface SubgraphOverride {
  /** Replaces the URL written in the supergraph (like Apollo Router's `override_subgraph_url`). */
  readonly url?: string;
  readonly timeoutMs?: number;
  /** Replaces `subgraphDefaults.maxResponseBytes` for this subgraph. */
  readonly maxResponseBytes?: number;
  /** Replaces `subgraphDefaults.deduplicate` for this subgraph. */
  readonly deduplicate?: boolean;
  /** Replaces `subgraphDefaults.errors` for this subgraph (like the Router's `include_subgraph_errors.subgraphs`). */
  readonly errors?: SubgraphErrors;
  /** Each replaces the `subgraphDefaults` setting of the same name for this subgraph. */
  readonly retries?: number;
  readonly retryBackoffMs?: number;
  readonly retryBudget?: number;
  readonly retryMinPerSec?: number;
  readonly circuitBreaker?: boolean;
  readonly circuitFailureRate?: number;
  readonly circuitMinRequests?: number;
  readonly circuitCooldownMs?: number;
}
