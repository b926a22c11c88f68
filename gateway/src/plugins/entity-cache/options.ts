import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import { type Logger, OptionIssues } from '../../plugin-sdk/index.js';
import type { EntityStore } from './store.js';

export interface EntityCacheOptions {
  /** Where answers are kept. Default: in memory, bounded by `maxBytes`. */
  readonly store?: EntityStore;
  /** The memory store's bound (keys, values, overhead). Default: 64 MiB. */
  readonly maxBytes?: number;
  /** An answer larger than this is never kept. Default: 256 KiB. */
  readonly maxEntryBytes?: number;
  /**
   * The share of `maxBytes` one key space may hold (a subgraph's type, one identity's private
   * answers), so one client cannot evict everyone's entries. Default: 0.25.
   */
  readonly maxSpaceShare?: number;
  /** TTL when the subgraph sends no `max-age`, by type (`Product`), before `subgraphTtlMs`. */
  readonly typeTtlMs?: Readonly<Record<string, number>>;
  /** TTL when the subgraph sends no `max-age` and the type has none, by subgraph name. */
  readonly subgraphTtlMs?: Readonly<Record<string, number>>;
  /** TTL when none of the above applies. Default: none (such answers are not kept). */
  readonly defaultTtlMs?: number;
  /** No answer is kept longer than this, whatever its `max-age`. Default: 1 hour. */
  readonly maxTtlMs?: number;
  /**
   * Serves `POST /entity-cache/invalidate` on the metrics listener (METRICS_PORT) to callers
   * sending `Authorization: Bearer <token>`. Default: not served.
   */
  readonly invalidationToken?: string;
  /**
   * Subgraph request headers that only restate the caller's identity (the JWT plugin's claim
   * headers, `x-user-id`). By default they are in every key like any other header, so even a
   * subgraph that wrongly calls a personal answer `public` never leaks it. Default: none.
   */
  readonly identityHeaders?: readonly string[];
  /**
   * Subgraphs trusted to mean `public`: their public answers do not depend on who asks. Only
   * whether identity headers were sent is in those answers' keys (signed-in callers share
   * them; anonymous callers, whom a subgraph may answer otherwise, do not), unless the answer's
   * `Vary` names one. Private answers keep the caller's identity. Default: none.
   */
  readonly sharedPublicSubgraphs?: readonly string[];
  /** The gateway's plugins, to tell them what the cache does (`entity-cache` events). */
  readonly plugins?: () => readonly GatewayPlugin[];
  readonly logger?: Logger;
}

export interface CheckedOptions {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly maxSpaceShare: number;
  readonly typeTtlMs: ReadonlyMap<string, number>;
  readonly subgraphTtlMs: ReadonlyMap<string, number>;
  readonly defaultTtlMs: number | undefined;
  readonly maxTtlMs: number;
  readonly identityHeaders: ReadonlySet<string>;
  readonly sharedPublicSubgraphs: ReadonlySet<string>;
}

const MiB = 1024 * 1024;

export function checkOptions(options: EntityCacheOptions): CheckedOptions {
  const issues = new OptionIssues();
  const positive = (field: string, value: unknown, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      issues.add(field, `expected a positive integer, got ${JSON.stringify(value)}`);
    }
    return value as number;
  };
  const ttls = (field: string, value: unknown): Map<string, number> => {
    if (value === undefined) return new Map();
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      issues.add(field, 'expected an object of name → milliseconds');
      return new Map();
    }
    for (const [name, ms] of Object.entries(value)) {
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0)
        issues.add(`${field}.${name}`, 'expected milliseconds ≥ 0');
    }
    return new Map(Object.entries(value as Record<string, number>));
  };
  const maxBytes = positive('maxBytes', options.maxBytes, 64 * MiB);
  const maxEntryBytes = positive('maxEntryBytes', options.maxEntryBytes, 256 * 1024);
  const maxSpaceShare = options.maxSpaceShare ?? 0.25;
  if (typeof maxSpaceShare !== 'number' || !(maxSpaceShare > 0 && maxSpaceShare <= 1)) {
    issues.add('maxSpaceShare', 'expected a number above 0, at most 1');
  }
  const checked: CheckedOptions = {
    maxBytes,
    maxEntryBytes,
    maxSpaceShare,
    typeTtlMs: ttls('typeTtlMs', options.typeTtlMs),
    subgraphTtlMs: ttls('subgraphTtlMs', options.subgraphTtlMs),
    defaultTtlMs: options.defaultTtlMs === undefined ? undefined : positive('defaultTtlMs', options.defaultTtlMs, 0),
    maxTtlMs: positive('maxTtlMs', options.maxTtlMs, 3_600_000),
    identityHeaders: new Set((options.identityHeaders ?? []).map((name) => name.toLowerCase())),
    sharedPublicSubgraphs: new Set(options.sharedPublicSubgraphs ?? []),
  };
  issues.throwIfAny('entity-cache');
  return checked;
}
