import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import type { GatewayContext, GatewayPlugin } from './contract/index.js';

type GatewayInterface = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];

/**
 * The gateway Apollo Server runs: `gateway` itself, its executor wrapped by each plugin's
 * `aroundExecute` (the first plugin outermost). Unwrapped when no plugin has the hook.
 */
export function withExecuteHooks(gateway: GatewayInterface, plugins: readonly GatewayPlugin[]): GatewayInterface {
  const hooks = plugins.filter((plugin) => plugin.aroundExecute);
  if (hooks.length === 0) return gateway;
  return {
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
    stop: () => gateway.stop(),
    load: async (options) => {
      const loaded = await gateway.load(options);
      const { executor } = loaded;
      if (!executor) return loaded;
      const wrapped = hooks.reduceRight<typeof executor>(
        (next, plugin) => (request) =>
          (plugin.aroundExecute as NonNullable<GatewayPlugin['aroundExecute']>)(request, (instead) =>
            next(instead ?? request),
          ),
        executor,
      );
      return { ...loaded, executor: wrapped };
    },
  };
}
