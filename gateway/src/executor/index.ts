import type { ApolloGateway } from '@apollo/gateway';
import type { CoreSettings } from '../core-settings.js';
import { replaceExecutor } from '../execute-hooks.js';
import type { Logger } from '../logger.js';
import { announcingDefer } from './defer-schema.js';
import { hivePlanner } from './hive-plan/hive-planner.js';
import { leanExecutor } from './lean-executor.js';
import { warnOverrideLabelsOff } from './override-apollo.js';
import { LABELS_OFF, type ProgressiveOverride, progressiveOverride, type RandomSource } from './override-decision.js';

export { deferredDeliveryPlugin } from './deferred-delivery.js';
export type { ProgressiveOverride, RandomSource } from './override-decision.js';
export { streamValidationRules } from './stream-rules.js';

/**
 * The gateway Apollo Server runs, with the query-plan executor QUERY_PLAN_EXECUTOR chose:
 * `apollo` is the gateway untouched; `lean` swaps in our executor when the supergraph loads
 * (it reads the gateway's current schemas and plans per request, so hot reload needs nothing more).
 * Only `lean` runs @defer plans (executeQueryPlan refuses them), so only it announces `@defer`,
 * and only it plans with the progressive-override labels `overrides` turns on (ADR 054).
 */
export function withPlanExecutor(
  gateway: ApolloGateway,
  choice: CoreSettings['queryPlanExecutor'],
  logger: Logger,
  overrides: ProgressiveOverride = LABELS_OFF,
  planner: CoreSettings['queryPlanner'] = 'hive',
): ReturnType<typeof replaceExecutor> {
  if (choice === 'apollo') {
    warnOverrideLabelsOff(gateway, logger);
    // QUERY_PLANNER defaults to hive, so this is the rule, not a mistake: said once, not warned.
    if (planner === 'hive')
      logger.info('QUERY_PLAN_EXECUTOR=apollo: Apollo plans every operation (QUERY_PLANNER unused)');
    return gateway;
  }
  const second = planner === 'hive' ? hivePlanner(logger) : undefined;
  return announcingDefer(replaceExecutor(gateway, () => leanExecutor(gateway, logger, overrides, second)));
}

/**
 * Who decides the progressive-override labels of each request (ADR 054): `lean` draws
 * `percent(N)` labels with `random` and reads `scope.overrideLabels`; `apollo` plans with every
 * label off (@apollo/gateway's executor takes no override conditions), subscriptions included.
 */
export function overridesFor(choice: CoreSettings['queryPlanExecutor'], random?: RandomSource): ProgressiveOverride {
  return choice === 'lean' ? progressiveOverride(random) : LABELS_OFF;
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
