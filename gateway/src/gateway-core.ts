import { clientAddressResolver, clientKeyResolver, requestSchemeResolver } from './client-address/index.js';
import { type Clock, realClock } from './clock.js';
import type { CostOf } from './context.js';
import type { GatewayContext, GatewayPlugin, MountableGateway } from './contract/index.js';
import type { CoreSettings } from './core-settings.js';
import type { RandomSource } from './executor/index.js';
import { createFormatError } from './format-error.js';
import { createApolloGateway } from './gateway-core/apollo-gateway.js';
import { createApolloServer } from './gateway-core/apollo-server.js';
import { gatewayLifecycle } from './gateway-core/lifecycle.js';
import { contextBuilder, requestRunner, responseHook } from './gateway-core/request-hooks.js';
import {
  operationExecutor,
  streamingEndpoint,
  subscriptionRegistryFor,
  subscriptionSettingsOf,
} from './gateway-core/subscriptions.js';
import type { Logger } from './logger.js';
import { admitWith } from './origin-policy/admit.js';
import { createOriginPolicy } from './origin-policy/policy.js';
import type { SubgraphDataSource } from './subgraph-fetch/data-source.js';
import { DataSourceRetirement } from './supergraph/retire.js';
import type { SupergraphSource } from './supergraph/source.js';
import { uploadReceiver } from './uploads/receiver.js';

export interface CoreOptions {
  logger: Logger;
  /** Where the supergraph is read from (and polled, for hot reload). */
  supergraph: SupergraphSource;
  /** Every plugin, the gateway's own checks included, in the order their hooks run. */
  plugins: readonly GatewayPlugin[];
  /** `context.estimateCost`: demand control's estimate (default: every operation costs 0). */
  estimateCost?: CostOf;
  /** What schedules the supergraph's polls. Default: the real clock. */
  clock?: Clock;
  /** The draw for `percent(N)` progressive-override labels (default `Math.random`; tests pass a seeded one). */
  overrideRandom?: RandomSource;
}

/** A gateway that any adapter can mount, with its lifecycle. */
export interface Gateway extends MountableGateway<GatewayContext> {
  readonly config: CoreSettings;
  readonly logger: Logger;
  /** Reads and loads the supergraph, then starts Apollo Server. */
  start(): Promise<void>;
  /** `/ready` turns 503 so load balancers stop sending traffic; requests are still served. */
  beginDrain(): void;
  /** Stops Apollo Server and closes the subgraph connection pools. Call after the HTTP server closed. */
  stop(): Promise<void>;
}

/**
 * The core: Apollo Gateway and Server, the subgraph data sources, the request context and
 * the lifecycle, around the plugins it is given (compose/ chooses and builds them). Reads
 * no configuration source and imports no plugin.
 */
export function assembleGateway(config: CoreSettings, options: CoreOptions): Gateway {
  const { logger, supergraph, plugins } = options;
  const dataSources = new Map<string, SubgraphDataSource>();
  // Data sources a supergraph update replaced, closed once the requests using them ended.
  const retired = new DataSourceRetirement();

  const apolloLogger = logger.child({ component: 'apollo-gateway' });
  const gateway = createApolloGateway({
    config,
    supergraph,
    plugins,
    logger,
    apolloLogger,
    dataSources,
    retired,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const formatError = createFormatError(config.maskErrors);
  const subscriptionSettings = subscriptionSettingsOf(config);
  const clientKey = clientKeyResolver(config);
  const subscriptions = subscriptionRegistryFor(config, gateway);
  const subscriptionParts = { config, settings: subscriptionSettings, clientKey, formatError };
  const executor = operationExecutor({
    ...options,
    ...subscriptionParts,
    gateway,
    apolloLogger,
    registry: subscriptions,
  });
  const server = createApolloServer({ config, executor, plugins, formatError, retired, logger });

  const context = contextBuilder(config, plugins, logger, options.estimateCost);
  const runRequest = requestRunner(plugins);
  const onResponse = responseHook(plugins, runRequest);
  const streaming = streamingEndpoint({ ...subscriptionParts, server, context, onResponse, runRequest });
  const lifecycle = gatewayLifecycle({ ...options, config, server, dataSources, retired, subscriptions, streaming });

  const admit = admitWith(plugins, formatError, logger);
  // graphql-sse's reservations are PUT and DELETE.
  const methods = config.subscriptions.enabled ? ['GET', 'POST', 'PUT', 'DELETE'] : ['GET', 'POST'];

  return {
    config,
    logger,
    server,
    origins: createOriginPolicy(config.cors, methods),
    ...(admit && { admit }),
    path: config.graphqlPath,
    clientAddress: clientAddressResolver(config),
    clientKey,
    requestScheme: requestSchemeResolver(config),
    bodyLimitBytes: config.http.bodyLimitBytes,
    ...(config.http.compression && { compression: { minBytes: config.http.compressionMinBytes } }),
    context,
    ...(streaming && { subscriptions: streaming }),
    ...(config.uploads.enabled && {
      uploads: uploadReceiver(
        { ...config.uploads, bodyLimitBytes: config.http.bodyLimitBytes },
        options.clock ?? realClock,
        clientKey,
      ),
    }),
    adminRoutes: plugins.flatMap((plugin) => plugin.adminRoutes ?? []),
    isReady: lifecycle.isReady,
    isDraining: lifecycle.isDraining,
    onResponse,
    ...(runRequest && { runRequest }),
    start: lifecycle.start,
    beginDrain: lifecycle.beginDrain,
    stop: lifecycle.stop,
  };
}
