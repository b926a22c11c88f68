import type { ConfigIssue } from '../../errors.js';
import { ENTITY_CACHE_VALUES } from '../../plugins/entity-cache/options.js';
import { nonEmpty, oneOf, secret, withDefault } from '../../settings/kinds.js';
import { ENTITY_CACHE_STORES } from '../choices.js';
import { type PLUGIN_FIELDS, redisUrl } from './plugins.js';
import { type ConfigOf, defineFields, type Open } from './spec.js';

// The entity cache (plugins/entity-cache/, docs/entity-cache.md).
export const ENTITY_CACHE_FIELDS = defineFields([
  {
    key: 'entityCache.store',
    formerKey: 'entityCache',
    env: 'ENTITY_CACHE',
    parse: withDefault(oneOf(ENTITY_CACHE_STORES), 'off'),
    meaning:
      'keeps subgraph answers (entities, root query fields) across requests: `off`, `memory` or `redis`; see [Entity cache](entity-cache.md)',
  },
  {
    key: 'entityCache.maxBytes',
    formerKey: 'entityCacheMaxBytes',
    env: 'ENTITY_CACHE_MAX_BYTES',
    parse: ENTITY_CACHE_VALUES.maxBytes,
    meaning:
      "the memory store's bound (keys, values and overhead); one key space (a type, one identity) holds a quarter at most",
    docDefault: '`64mb`',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.maxEntryBytes',
    formerKey: 'entityCacheMaxEntryBytes',
    env: 'ENTITY_CACHE_MAX_ENTRY_BYTES',
    parse: ENTITY_CACHE_VALUES.maxEntryBytes,
    meaning: 'an answer (one entity, one root fetch) larger than this is never kept',
    docDefault: '`256kb`',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.defaultTtlMs',
    formerKey: 'entityCacheTtlDefault',
    env: 'ENTITY_CACHE_TTL_DEFAULT',
    parse: ENTITY_CACHE_VALUES.defaultTtlMs,
    meaning:
      'TTL of an answer whose subgraph sends no `max-age` and whose type and subgraph have none below; unset: such answers are not kept',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.subgraphTtlMs',
    formerKey: 'entityCacheTtlSubgraphs',
    env: 'ENTITY_CACHE_TTL_SUBGRAPHS',
    parse: ENTITY_CACHE_VALUES.subgraphTtlMs,
    meaning: 'per-subgraph TTL when the subgraph sends no `max-age` (`products:60s,reviews:5s`)',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.typeTtlMs',
    formerKey: 'entityCacheTtlTypes',
    env: 'ENTITY_CACHE_TTL_TYPES',
    parse: ENTITY_CACHE_VALUES.typeTtlMs,
    meaning:
      "per-type TTL when the subgraph sends no `max-age`, before the subgraph's (`Product:60s`; `Query` for root fields)",
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.maxTtlMs',
    formerKey: 'entityCacheMaxTtl',
    env: 'ENTITY_CACHE_MAX_TTL',
    parse: ENTITY_CACHE_VALUES.maxTtlMs,
    meaning: 'no answer is kept longer than this, whatever its `max-age`',
    docDefault: '`1h`',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.clientWriteBytes',
    env: 'ENTITY_CACHE_CLIENT_WRITE_BYTES',
    parse: ENTITY_CACHE_VALUES.clientWriteBytes,
    meaning:
      'bytes one client (as `RATE_LIMIT_KEY` tells clients apart; by address when that is `global`) may add to the cache per `ENTITY_CACHE_CLIENT_WRITE_WINDOW`: past it, its answers are served but not kept, so a client asking for ever new arguments cannot evict what the others read',
    docDefault: '`4mb`',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.clientWriteWindowMs',
    env: 'ENTITY_CACHE_CLIENT_WRITE_WINDOW',
    parse: ENTITY_CACHE_VALUES.clientWriteWindowMs,
    meaning: 'the fixed window `ENTITY_CACHE_CLIENT_WRITE_BYTES` is counted in',
    docDefault: '`60s`',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.sharedPublicSubgraphs',
    formerKey: 'entityCacheSharedPublicSubgraphs',
    env: 'ENTITY_CACHE_SHARED_PUBLIC_SUBGRAPHS',
    parse: ENTITY_CACHE_VALUES.sharedPublicSubgraphs,
    meaning:
      "subgraphs trusted to mean `public`: their public answers are shared by all signed-in callers (the JWT claim headers count by name, not value, in the key) unless they send `Vary` naming one; none: a claim header's value is in every key, so a subgraph that wrongly calls a personal answer public cannot leak it",
    docDefault: 'none',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.redisUrl',
    formerKey: 'entityCacheRedisUrl',
    env: 'ENTITY_CACHE_REDIS_URL',
    parse: redisUrl,
    meaning:
      '`ENTITY_CACHE=redis`: the Redis shared by replicas (default: `GATEWAY_REDIS_URL`); slow or down, lookups are bypassed, never failed; a secret, never logged',
    feature: 'entity-cache',
  },
  {
    key: 'entityCache.invalidationToken',
    formerKey: 'entityCacheInvalidationToken',
    env: 'ENTITY_CACHE_INVALIDATION_TOKEN',
    parse: secret(nonEmpty, 'expected a non-empty bearer token'),
    meaning:
      'turns on `POST <METRICS_PATH>/entity-cache/invalidate` on the metrics listener (never the public port), for callers sending `Authorization: Bearer <token>`; a secret, never logged',
    feature: 'entity-cache',
  },
]);

/** The `entityCache` group's rule (ADR 052): ENTITY_CACHE=redis needs a Redis, ENTITY_CACHE_REDIS_URL, else GATEWAY_REDIS_URL (filled in here). */
export function fillInEntityCacheRedis(
  { entityCache, rateLimit }: Open<ConfigOf<typeof ENTITY_CACHE_FIELDS> & ConfigOf<typeof PLUGIN_FIELDS>>,
  issues: ConfigIssue[],
): void {
  if (entityCache.store !== 'redis') return;
  entityCache.redisUrl ??= rateLimit.redisUrl;
  if (entityCache.redisUrl === undefined) {
    issues.push({ field: 'ENTITY_CACHE', message: 'redis needs ENTITY_CACHE_REDIS_URL (or GATEWAY_REDIS_URL)' });
  }
}
