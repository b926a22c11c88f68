import { clientKeyResolver } from '../client-address/index.js';
import type { GatewayConfig } from '../config/types.js';
import type { GatewayPlugin } from '../contract/index.js';
import type { Logger } from '../logger.js';
import { type EntityCachePlugin, type EntityStore, entityCache } from '../plugins/entity-cache/index.js';

/**
 * ENTITY_CACHE=memory|redis: the entity cache plugin from its group of settings, named as the
 * plugin names its options; none when off. `store` and `redisUrl` name where answers are kept.
 */
export function entityCacheFromConfig(
  config: GatewayConfig,
  logger: Logger,
  plugins: () => readonly GatewayPlugin[],
): EntityCachePlugin[] {
  const { store, redisUrl, ...options } = config.entityCache;
  if (store === 'off') return [];
  const cacheLogger = logger.child({ component: 'entity-cache' });
  // Clients told apart as every per-client cap tells them (a subject, else the client's network
  // with its API key's consumer): never a key that many clients share (docs/security.md).
  const keyOf = clientKeyResolver(config);
  return [
    entityCache({
      ...options,
      ...(store === 'redis' && { store: lazyRedisStore(redisUrl as string) }),
      // The JWT plugin's claim headers restate the caller's identity (ADR 037).
      identityHeaders: Object.values(config.jwt.claimHeaders),
      clientKey: (context) => keyOf(context.scope.ip, context.identity),
      plugins,
      logger: cacheLogger,
    }),
  ];
}

/**
 * ioredis is imported only when ENTITY_CACHE=redis, and createGateway is synchronous: the
 * store loads on first use, its lookups a bypass until then (the first few requests).
 */
function lazyRedisStore(url: string): EntityStore {
  let store: EntityStore | undefined;
  const loading = import('../plugins/entity-cache/redis-store.js').then(({ RedisEntityStore }) => {
    store = new RedisEntityStore({ url });
    return store;
  });
  return {
    get: (keys) => store?.get(keys),
    set: (entries) => store?.set(entries),
    invalidate: async (target) => (await loading).invalidate(target),
    close: async () => (await loading).close(),
  };
}
