import type { ApolloGateway } from '@apollo/gateway';
import type { CoreSettings } from '../core-settings.js';
import { replaceExecutor } from '../execute-hooks.js';
import type { Logger } from '../logger.js';
import { leanExecutor } from './lean-executor.js';

/**
 * The gateway Apollo Server runs, with the query-plan executor QUERY_PLAN_EXECUTOR chose:
 * `apollo` is the gateway untouched; `lean` swaps in our executor when the supergraph loads
 * (it reads the gateway's current schemas and plans per request, so hot reload needs nothing more).
 */
export function withPlanExecutor(
  gateway: ApolloGateway,
  choice: CoreSettings['queryPlanExecutor'],
  logger: Logger,
): ReturnType<typeof replaceExecutor> {
  if (choice === 'apollo') return gateway;
  return replaceExecutor(gateway, () => leanExecutor(gateway, logger));
}
