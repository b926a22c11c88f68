import type { ApolloGateway } from '@apollo/gateway';
import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import type { CoreSettings } from '../core-settings.js';
import type { Logger } from '../logger.js';
import { leanExecutor } from './lean-executor.js';

type GatewayInterface = ApolloServerOptionsWithGateway<never>['gateway'];

/**
 * The gateway Apollo Server runs, with the query-plan executor QUERY_PLAN_EXECUTOR chose:
 * `apollo` is the gateway untouched; `lean` swaps in our executor when the supergraph loads
 * (it reads the gateway's current schemas and plans per request, so hot reload needs nothing more).
 */
export function withPlanExecutor(
  gateway: ApolloGateway,
  choice: CoreSettings['queryPlanExecutor'],
  logger: Logger,
): GatewayInterface {
  if (choice === 'apollo') return gateway;
  return {
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
    stop: () => gateway.stop(),
    load: async (options) => {
      const loaded = await gateway.load(options);
      return { ...loaded, executor: leanExecutor(gateway, logger) };
    },
  };
}
