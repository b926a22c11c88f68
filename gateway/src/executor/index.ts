import type { ApolloGateway } from '@apollo/gateway';
import type { CoreSettings } from '../core-settings.js';
import { replaceExecutor } from '../execute-hooks.js';
import type { Logger } from '../logger.js';
import { announcingDefer } from './defer-schema.js';
import { leanExecutor } from './lean-executor.js';

export { deferredDeliveryPlugin } from './deferred-delivery.js';

/**
 * The gateway Apollo Server runs, with the query-plan executor QUERY_PLAN_EXECUTOR chose:
 * `apollo` is the gateway untouched; `lean` swaps in our executor when the supergraph loads
 * (it reads the gateway's current schemas and plans per request, so hot reload needs nothing more).
 * Only `lean` runs @defer plans (executeQueryPlan refuses them), so only it announces `@defer`.
 */
export function withPlanExecutor(
  gateway: ApolloGateway,
  choice: CoreSettings['queryPlanExecutor'],
  logger: Logger,
): ReturnType<typeof replaceExecutor> {
  if (choice === 'apollo') return gateway;
  return announcingDefer(replaceExecutor(gateway, () => leanExecutor(gateway, logger)));
}

/**
 * The planner settings for QUERY_PLAN_EXECUTOR: `lean` plans @defer (DeferNode plans, which it
 * runs); `apollo` keeps @apollo/gateway's default, where @defer is an unknown directive.
 */
export function deferPlanning(choice: CoreSettings['queryPlanExecutor']): {
  incrementalDelivery?: { enableDefer: true };
} {
  return choice === 'lean' ? { incrementalDelivery: { enableDefer: true } } : {};
}
