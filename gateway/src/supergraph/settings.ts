import * as v from 'valibot';
import type { ConfigIssue } from '../errors.js';
import { byteSize, integer, nonEmpty, type ValueParser, withDefault } from '../settings/kinds.js';

/** Polls closer than this would only burn CPU re-reading a file or hammering a server. */
const MIN_POLL_INTERVAL_MS = 100;

/** `0` (hot reload off) or an interval from 100 ms to a day. */
export const pollInterval: ValueParser<number> = v.pipe(
  integer(0, 86_400_000),
  v.check(
    (value) => value === 0 || value >= MIN_POLL_INTERVAL_MS,
    (issue) => `!expected 0 (off) or at least ${MIN_POLL_INTERVAL_MS} ms, got ${issue.input}`,
  ),
  v.description('an integer from 0 to 86400000'),
);

/**
 * Hot-reload schemas and defaults. 10 s: a Kubernetes ConfigMap reaches the pod's volume up
 * to a minute after it changed (kubelet sync period plus its cache), so polling faster buys
 * little, while a `stat` (or a 304 answer) every 10 s costs nothing measurable. Apollo's own
 * Uplink polling does not go below 10 s either.
 */
export const SUPERGRAPH_VALUES = Object.freeze({
  path: withDefault(nonEmpty, 'supergraph.graphql'),
  pollIntervalMs: withDefault(pollInterval, 10_000),
  urlTimeoutMs: withDefault(integer(100, 600_000), 5_000),
  /** Far above real supergraphs (a few MB for hundreds of subgraphs); it only stops a runaway body. */
  urlMaxBytes: withDefault(byteSize(1024, 1024 ** 3), 50 * 1024 ** 2),
});

/**
 * The `supergraph` group's rule (ADR 052): rejects combinations that cannot mean what the
 * operator wants. `explicit` holds only the settings that were set (environment or config
 * file), typed, before defaults are filled in.
 */
export function checkSupergraphSource(
  explicit: { readonly supergraph?: { readonly path?: string; readonly url?: string } },
  issues: ConfigIssue[],
): void {
  if (explicit.supergraph?.url !== undefined && explicit.supergraph.path !== undefined) {
    issues.push({
      field: 'SUPERGRAPH_PATH | SUPERGRAPH_URL',
      message: 'set one supergraph source: SUPERGRAPH_URL replaces the file, it is not a fallback',
    });
  }
  // The URL's limits without a URL are reported as warnings (config/features.ts).
}
