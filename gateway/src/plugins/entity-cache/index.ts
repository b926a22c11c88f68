import { createHash } from 'node:crypto';
import type { EntityCacheEvent, GatewayPlugin } from '../../plugin-sdk/index.js';
import { clientKey, emitEvent } from '../../plugin-sdk/index.js';
import { invalidationRoute } from './admin-route.js';
import { ClientWriteBudget } from './client-budget.js';
import { FetchCache } from './fetch-cache.js';
import { KeyFields } from './key-fields.js';
import { entityDigest } from './keys.js';
import { MemoryStore } from './memory-store.js';
import { checkOptions, type EntityCacheOptions, PLUGIN_NAME } from './options.js';
import { PendingInvalidations } from './pending-invalidations.js';
import type { InvalidationTarget } from './store.js';

export { MemoryStore } from './memory-store.js';
export { ENTITY_CACHE_DEFAULTS, ENTITY_CACHE_VALUES, type EntityCacheOptions } from './options.js';
export type { EntityStore, InvalidationTarget, StoreEntry } from './store.js';

/** The cache, as the admin endpoint sees it. */
export interface EntityCachePlugin extends GatewayPlugin {
  /** Drops what `target` names (an entity's `key` is its `@key` fields' values); resolves to how many entries went. */
  invalidate(target: { subgraph: string; type?: string; key?: Readonly<Record<string, unknown>> }): Promise<number>;
}

/**
 * ENTITY_CACHE: keeps subgraph answers across requests. Each entity of an `_entities` fetch
 * is kept on its own (subgraph, type, `@key` values, the selection asked), and each root query
 * fetch as one entry (its fields, arguments and variables); a fetch whose entities are partly
 * kept asks the subgraph for the others only. What may be kept, and how long, is the
 * subgraph's `Cache-Control` (else the configured default TTLs); `private` answers are kept
 * under the caller's identity only. See docs/entity-cache.md.
 */
export function entityCache(options: EntityCacheOptions = {}): EntityCachePlugin {
  const checked = checkOptions(options);
  const now = options.now ?? Date.now;
  const events = (event: Omit<EntityCacheEvent, 'type'>) => {
    if (event.count > 0 && options.plugins) {
      emitEvent(options.plugins(), { type: 'entity-cache', ...event }, options.logger);
    }
  };
  const store =
    options.store ??
    new MemoryStore({
      maxBytes: checked.maxBytes,
      maxSpaceBytes: Math.max(1, Math.floor(checked.maxBytes * checked.maxSpaceShare)),
      onEvict: (subgraph, entityType) => events({ subgraph, entityType, outcome: 'eviction', count: 1 }),
      now,
    });
  // The store as the cache uses it: an invalidation it cannot take now is retried, and nothing is
  // read from it or written to it meanwhile (ADR 050).
  const kept = new PendingInvalidations(store, {
    maxTtlMs: checked.maxTtlMs,
    ...(options.logger && { logger: options.logger }),
    onOutcome: (outcome, target, dropped, pending) => {
      events({ subgraph: target.subgraph, entityType: target.type ?? '*', outcome: 'invalidation', count: dropped });
      if (options.plugins) {
        emitEvent(options.plugins(), { type: 'entity-cache-invalidation', outcome, pending }, options.logger);
      }
    },
  });
  let schema: string | undefined;
  let keyFields = new KeyFields();
  const identityVaryingSelections = new Set<string>();

  const invalidate = (target: InvalidationTarget): Promise<number> => kept.invalidate(target);

  const cache = new FetchCache(kept, checked, {
    schema: () => schema,
    keyFields: () => keyFields,
    identityVaryingSelections,
    events,
    invalidate,
    budget: new ClientWriteBudget(checked.clientWriteBytes, checked.clientWriteWindowMs, now),
    clientKey: options.clientKey ?? ((context) => clientKey(context.scope.ip, context.identity)),
  });

  return {
    name: PLUGIN_NAME,
    onSupergraph({ sdl }) {
      schema = createHash('sha256').update(sdl).digest('base64url').slice(0, 16);
      keyFields = KeyFields.fromSdl(sdl);
      identityVaryingSelections.clear();
    },
    aroundSubgraphFetch: (request, fetch) => cache.around(request, fetch),
    invalidate: ({ subgraph, type, key }) =>
      invalidate({
        subgraph,
        ...(type !== undefined && { type }),
        ...(type !== undefined && key !== undefined && { entity: entityDigest(key) }),
      }),
    ...(options.invalidationToken !== undefined && {
      adminRoutes: [invalidationRoute(options.invalidationToken, (target) => kept.apply(target))],
    }),
    close: () => kept.close(),
  };
}
