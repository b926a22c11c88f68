import type { GatewayConfig } from '../config/types.js';
import type { GatewayPlugin } from '../contract/index.js';
import type { Logger } from '../logger.js';
import { type EntityCachePlugin, entityCache } from '../plugins/entity-cache/index.js';

/** ENTITY_CACHE=memory|redis: the entity cache plugin from its settings; none when off. */
export function entityCacheFromConfig(
  config: GatewayConfig,
  logger: Logger,
  plugins: () => readonly GatewayPlugin[],
): EntityCachePlugin[] {
  if (config.entityCache === 'off') return [];
  return [
    entityCache({
      maxBytes: config.entityCacheMaxBytes,
      maxEntryBytes: config.entityCacheMaxEntryBytes,
      typeTtlMs: config.entityCacheTtlTypes,
      subgraphTtlMs: config.entityCacheTtlSubgraphs,
      ...(config.entityCacheTtlDefault !== undefined && { defaultTtlMs: config.entityCacheTtlDefault }),
      maxTtlMs: config.entityCacheMaxTtl,
      ...(config.entityCacheInvalidationToken !== undefined && {
        invalidationToken: config.entityCacheInvalidationToken,
      }),
      plugins,
      logger: logger.child({ component: 'entity-cache' }),
    }),
  ];
}
