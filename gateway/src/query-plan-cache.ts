import type { GatewayConfig as ApolloGatewayConfig } from '@apollo/gateway';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { GatewayEvent, GatewayPlugin } from './contract/index.js';
import { emitEvent } from './events.js';
import type { Logger } from './logger.js';

/**
 * The query-plan cache @apollo/gateway would build itself, wrapped to report hits and misses
 * as `query-plan-cache` events.
 *
 * Why this way: `queryPlannerConfig.cache` is @apollo/gateway's public, typed option for
 * supplying the plan cache, and its executor calls `get` exactly once per operation that
 * passed validation (then `set` after planning on a miss). The alternatives are more
 * fragile: the store is a private field; `experimental_didResolveQueryPlan` runs on hits and
 * misses alike; the `gateway.plan` OpenTelemetry span is only seen when a tracer provider
 * records it (sampling would undercount).
 * The inner store is the same `InMemoryLRUCache` with the same ~30 MiB size and size
 * function as @apollo/gateway 2.14's default (the same major of @apollo/utils.keyvaluecache),
 * so caching behaves exactly as without the wrapper.
 */
type PlanCache = NonNullable<NonNullable<ApolloGatewayConfig['queryPlannerConfig']>['cache']>;
type Plan = PlanCache extends { get(key: string): Promise<infer T | undefined> } ? T : never;

const DEFAULT_SIZE_BYTES = 30 * 2 ** 20;
// Frozen, so a lookup allocates nothing for its event.
const HIT: GatewayEvent = Object.freeze({ type: 'query-plan-cache', outcome: 'hit' });
const MISS: GatewayEvent = Object.freeze({ type: 'query-plan-cache', outcome: 'miss' });

/**
 * `{ cache }` for ApolloGateway's `queryPlannerConfig` when a plugin observes events;
 * `undefined` otherwise, so @apollo/gateway keeps its own store untouched.
 */
export function observedQueryPlannerConfig(
  plugins: readonly GatewayPlugin[],
  logger: Logger,
): { cache: PlanCache } | undefined {
  const observers = plugins.filter((plugin) => plugin.onEvent);
  if (observers.length === 0) return undefined;
  const inner = defaultStore();
  return {
    cache: {
      async get(key) {
        const plan = await inner.get(key);
        emitEvent(observers, plan === undefined ? MISS : HIT, logger);
        return plan;
      },
      set: (key, value, options) => inner.set(key, value, options),
      delete: (key) => inner.delete(key),
      clear: () => inner.clear(),
    },
  };
}

function defaultStore(): PlanCache {
  return new InMemoryLRUCache<Plan>({
    maxSize: DEFAULT_SIZE_BYTES,
    sizeCalculation: (plan) => Buffer.byteLength(JSON.stringify(plan), 'utf8'),
  });
}
