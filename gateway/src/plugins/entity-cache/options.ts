import type { GatewayContext, GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  byteSize,
  checkKnownKeys,
  defaultsOf,
  duration,
  type Logger,
  list,
  nonEmpty,
  OptionIssues,
  pairs,
  readValue,
  share,
  type ValueParser,
  withDefault,
} from '../../plugin-sdk/index.js';
import type { EntityStore } from './store.js';

export const PLUGIN_NAME = 'entity-cache';

const HOUR = 3_600_000;
const ttl = duration(1000, 24 * HOUR);

/**
 * The options' schemas: each one's range and default, written once. The ENTITY_CACHE_* settings
 * are read with the same schemas (config/settings/entity-cache.ts), so a variable and its option
 * accept the same values and have the same default.
 */
export const ENTITY_CACHE_VALUES = Object.freeze({
  maxBytes: withDefault(byteSize(1024 ** 2, 64 * 1024 ** 3), 64 * 1024 ** 2),
  maxEntryBytes: withDefault(byteSize(1024, 64 * 1024 ** 2), 256 * 1024),
  maxSpaceShare: withDefault(share(0, 1, true), 0.25),
  typeTtlMs: withDefault(pairs(ttl, 'Type:duration'), {}),
  subgraphTtlMs: withDefault(pairs(ttl, 'subgraph:duration'), {}),
  defaultTtlMs: ttl,
  maxTtlMs: withDefault(ttl, HOUR),
  clientWriteBytes: withDefault(byteSize(1024, 64 * 1024 ** 3), 4 * 1024 ** 2),
  clientWriteWindowMs: withDefault(duration(1000, 24 * HOUR), 60_000),
  identityHeaders: withDefault(list(nonEmpty), []),
  sharedPublicSubgraphs: withDefault(list(nonEmpty), []),
});
/** The defaults, from the schemas. */
export const ENTITY_CACHE_DEFAULTS = defaultsOf(ENTITY_CACHE_VALUES);

export interface EntityCacheOptions {
  /** Where answers are kept. Default: in memory, bounded by `maxBytes`. */
  readonly store?: EntityStore;
  /** The memory store's bound (keys, values, overhead). Default: 64 MiB. */
  readonly maxBytes?: number;
  /** An answer larger than this is never kept. Default: 256 KiB. */
  readonly maxEntryBytes?: number;
  /**
   * The share of `maxBytes` one key space may hold (a subgraph's type, one identity's private
   * answers), so one key space cannot evict the others' entries. Default: 0.25.
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
   * Bytes (keys and values) one client's answers may add to the cache per `clientWriteWindowMs`:
   * past it, that client's answers are served but not kept, so one client asking for ever new
   * arguments cannot push out the entries other clients read. Default: 4 MiB.
   */
  readonly clientWriteBytes?: number;
  /** The fixed window `clientWriteBytes` is counted in. Default: 60 s. */
  readonly clientWriteWindowMs?: number;
  /**
   * Who a request's client is, for `clientWriteBytes`: the gateway passes the rate limit's key
   * (RATE_LIMIT_KEY). Default: the client's address.
   */
  readonly clientKey?: (context: GatewayContext) => string;
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
  /** The clock (ms), for TTLs and the write window. Default: `Date.now`. */
  readonly now?: () => number;
}

const KNOWN: readonly (keyof EntityCacheOptions)[] = [
  'store',
  'maxBytes',
  'maxEntryBytes',
  'maxSpaceShare',
  'typeTtlMs',
  'subgraphTtlMs',
  'defaultTtlMs',
  'maxTtlMs',
  'clientWriteBytes',
  'clientWriteWindowMs',
  'clientKey',
  'invalidationToken',
  'identityHeaders',
  'sharedPublicSubgraphs',
  'plugins',
  'logger',
  'now',
];

export interface CheckedOptions {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly maxSpaceShare: number;
  readonly typeTtlMs: ReadonlyMap<string, number>;
  readonly subgraphTtlMs: ReadonlyMap<string, number>;
  readonly defaultTtlMs: number | undefined;
  readonly maxTtlMs: number;
  readonly clientWriteBytes: number;
  readonly clientWriteWindowMs: number;
  readonly identityHeaders: ReadonlySet<string>;
  readonly sharedPublicSubgraphs: ReadonlySet<string>;
}

type Values = typeof ENTITY_CACHE_VALUES;
type ValueOf<K extends keyof Values> = Values[K] extends ValueParser<infer T> ? T : never;

/** Checks every option against its schema (the settings' own) and refuses unknown keys, naming each. */
export function checkOptions(options: EntityCacheOptions): CheckedOptions {
  const given = asOptionsObject(PLUGIN_NAME, options);
  const issues = new OptionIssues();
  checkKnownKeys(issues, given, KNOWN);
  /** The option read with its schema (a map's values may be written `60s`), or its default when unset or bad. */
  const value = <K extends keyof Values>(name: K): ValueOf<K> => {
    const raw = given[name];
    const fallback = (ENTITY_CACHE_DEFAULTS as Record<string, unknown>)[name] as ValueOf<K>;
    if (raw === undefined) return fallback;
    const before = issues.issues.length;
    issues.check(name, raw, ENTITY_CACHE_VALUES[name]);
    const parsed = readValue(ENTITY_CACHE_VALUES[name] as ValueParser<ValueOf<K>>, raw);
    return issues.issues.length === before && parsed.ok ? parsed.value : fallback;
  };
  for (const name of ['clientKey', 'now', 'plugins'] as const) {
    if (given[name] !== undefined && typeof given[name] !== 'function') issues.add(name, 'expected a function');
  }
  const checked: CheckedOptions = {
    maxBytes: value('maxBytes'),
    maxEntryBytes: value('maxEntryBytes'),
    maxSpaceShare: value('maxSpaceShare'),
    typeTtlMs: new Map(Object.entries(value('typeTtlMs'))),
    subgraphTtlMs: new Map(Object.entries(value('subgraphTtlMs'))),
    defaultTtlMs: value('defaultTtlMs'),
    maxTtlMs: value('maxTtlMs'),
    clientWriteBytes: value('clientWriteBytes'),
    clientWriteWindowMs: value('clientWriteWindowMs'),
    identityHeaders: new Set(value('identityHeaders').map((name) => name.toLowerCase())),
    sharedPublicSubgraphs: new Set(value('sharedPublicSubgraphs')),
  };
  issues.throwIfAny(PLUGIN_NAME);
  return checked;
}
