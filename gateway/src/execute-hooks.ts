import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import type { GatewayContext, GatewayPlugin } from './contract/index.js';

type GatewayInterface = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];
type Executor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;

/**
 * `gateway` with the executor its `load()` returns replaced by `replace(executor)`; schema
 * updates and `stop` go to `gateway` itself. The one way the core changes how operations run
 * (the lean plan executor, the plugins' `aroundExecute`).
 */
export function replaceExecutor(
  gateway: GatewayInterface,
  replace: (executor: Executor) => Executor,
): GatewayInterface {
  return {
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
    stop: () => gateway.stop(),
    load: async (options) => {
      const loaded = await gateway.load(options);
      return loaded.executor ? { ...loaded, executor: replace(loaded.executor) } : loaded;
    },
  };
}

/**
 * The gateway Apollo Server runs: `gateway` itself, its executor wrapped by each plugin's
 * `aroundExecute` (the first plugin outermost). Unwrapped when no plugin has the hook.
 */
export function withExecuteHooks(gateway: GatewayInterface, plugins: readonly GatewayPlugin[]): GatewayInterface {
  const hooks = plugins.filter((plugin) => plugin.aroundExecute);
  if (hooks.length === 0) return gateway;
  return replaceExecutor(gateway, (executor) =>
    hooks.reduceRight<Executor>(
      (next, plugin) => (request) =>
        (plugin.aroundExecute as NonNullable<GatewayPlugin['aroundExecute']>)(request, (instead) =>
          next(instead ?? request),
        ),
      executor,
    ),
  );
}
