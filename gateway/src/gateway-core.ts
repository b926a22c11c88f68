import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { GraphQLError } from 'graphql';
import { newApolloGateway } from './apollo-telemetry.js';
import { apolloServerWithBatching } from './batching/index.js';
import { clientAddressResolver, clientKeyResolver, requestSchemeResolver } from './client-address/index.js';
import type { Clock } from './clock.js';
import { type CostOf, createContext } from './context.js';
import type { GatewayContext, GatewayPlugin, Identity, MountableGateway, RequestScope } from './contract/index.js';
import type { CoreSettings } from './core-settings.js';
import { ClientErrorCode } from './error-registry.js';
import { GatewayConfigError, GatewayError, GatewayErrorCode } from './errors.js';
import { withExecuteHooks } from './execute-hooks.js';
import {
  deferPlanning,
  deferredDeliveryPlugin,
  overridesFor,
  type RandomSource,
  withPlanExecutor,
} from './executor/index.js';
import { createFormatError } from './format-error.js';
import { httpError } from './http-error.js';
import type { Logger } from './logger.js';
import { admitWith } from './origin-policy/admit.js';
import { createOriginPolicy } from './origin-policy/policy.js';
import { observedQueryPlannerConfig } from './query-plan-cache.js';
import { resilienceFor } from './resilience/per-subgraph.js';
import { stringifyResult } from './serialize/shared-answer.js';
import { SubgraphDataSource } from './subgraph-fetch/data-source.js';
import { subgraphKey } from './subgraph-overrides.js';
import { subscriptionEndpoint } from './subscriptions/endpoint.js';
import { withSubscriptions } from './subscriptions/index.js';
import { connectionsPerClient, type SubscriptionSettings } from './subscriptions/settings.js';
import { SubscriptionRegistry } from './subscriptions/subscription-registry.js';
import { supergraphHook } from './supergraph/hot-reload.js';
import { DataSourceRetirement } from './supergraph/retire.js';
import type { SupergraphSource } from './supergraph/source.js';

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

type State = 'created' | 'starting' | 'ready' | 'draining' | 'stopped';

/**
 * The core: Apollo Gateway and Server, the subgraph data sources, the request context and
 * the lifecycle, around the plugins it is given (compose/ chooses and builds them). Reads
 * no configuration source and imports no plugin.
 */
export function assembleGateway(config: CoreSettings, options: CoreOptions): Gateway {
  const { logger, supergraph } = options;
  const { plugins } = options;
  const authenticators = plugins.filter((plugin) => plugin.authenticate);
  const wrappers = plugins.flatMap((plugin) => (plugin.aroundRequest ? [plugin.aroundRequest.bind(plugin)] : []));
  const responders = plugins.filter((plugin) => plugin.onResponse);
  const readinessHolds = plugins.filter((plugin) => plugin.isReady);
  const dataSources = new Map<string, SubgraphDataSource>();
  // Data sources a supergraph update replaced, closed once the requests using them ended.
  const retired = new DataSourceRetirement();
  let state: State = 'created';

  const apolloLogger = logger.child({ component: 'apollo-gateway' });
  const gateway = newApolloGateway(
    {
      // A hook, not a string: read when Apollo Server starts, then polled (hot reload calls `update`).
      supergraphSdl: supergraphHook({
        source: supergraph,
        pollIntervalMs: config.supergraph.pollIntervalMs,
        overrides: config.subgraphs,
        plugins,
        logger: logger.child({ component: 'supergraph' }),
        apolloTelemetry: config.apolloTelemetry,
        ...(options.clock ? { clock: options.clock } : {}),
      }),
      buildService: ({ name, url }) => {
        const override = config.subgraphs[subgraphKey(name)];
        const target = override?.url ?? url;
        if (!target) throw new GatewayError(GatewayErrorCode.SUPERGRAPH_INVALID, `subgraph "${name}" has no URL`);
        const source = new SubgraphDataSource({
          name,
          url: target,
          timeoutMs: override?.timeoutMs ?? config.subgraphDefaults.timeoutMs,
          connections: config.subgraphDefaults.poolConnections,
          keepAliveMs: config.subgraphDefaults.keepAliveMs,
          maxResponseBytes: override?.maxResponseBytes ?? config.subgraphDefaults.maxResponseBytes,
          deduplicate: override?.deduplicate ?? config.subgraphDefaults.deduplicate,
          deduplicateRepresentations: config.subgraphDefaults.deduplicateRepresentations,
          errors: override?.errors ?? config.subgraphDefaults.errors,
          ...resilienceFor(config.subgraphDefaults, override),
          plugins,
          logger: logger.child({ component: 'subgraph-fetch' }),
        });
        // A supergraph update rebuilds a subgraph's source when its URL changed: release the old pool.
        const replaced = dataSources.get(subgraphKey(name));
        if (replaced) retired.retire(replaced);
        dataSources.set(subgraphKey(name), source);
        return source;
      },
      logger: apolloLogger,
      // Reports query-plan cache hits and misses to plugins that observe events (metrics); plans @defer (lean).
      queryPlannerConfig: {
        ...observedQueryPlannerConfig(plugins, logger),
        ...deferPlanning(config.queryPlanExecutor),
      },
    },
    config.apolloTelemetry,
  );

  const formatError = createFormatError(config.maskErrors);
  const subscriptionSettings = subscriptionSettingsOf(config);
  const clientKey = clientKeyResolver(config);
  const subscriptions = new SubscriptionRegistry(config.subscriptions.maxPerClient, config.subscriptions.maxOpen);
  // A new supergraph ends live subscriptions (their plans and data sources are the old one's).
  let schemaLoads = 0;
  gateway.onSchemaLoadOrUpdate(() => {
    schemaLoads += 1;
    if (schemaLoads > 1) subscriptions.endAllForReload();
  });
  const overrides = overridesFor(config.queryPlanExecutor, options.overrideRandom);
  const planned = withPlanExecutor(gateway, config.queryPlanExecutor, apolloLogger, overrides);
  const executor = withSubscriptions(planned, gateway, {
    overrides,
    settings: subscriptionSettings,
    registry: subscriptions,
    clientKey,
    plugins,
    formatError,
    logger: logger.child({ component: 'subscriptions' }),
  });

  // BATCHING_MAX_OPERATIONS > 0: batches served, each operation its own request (batching/).
  const server = apolloServerWithBatching(config.limits.batchingMaxOperations, {
    // Plugins' aroundExecute (inbound deduplication) run after auth, rate limit and every check, per caller.
    gateway: withExecuteHooks(executor, plugins),
    introspection: config.introspection,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: config.limits.maxTokens },
    // graphql-js stops validating after this many errors (its default is 100): an invalid
    // document's work and answer stay small.
    validationOptions: { maxErrors: 10 },
    includeStacktraceInErrorResponses: !config.maskErrors,
    // main.ts owns SIGTERM/SIGINT, so the HTTP server closes before Apollo Server stops.
    stopOnTerminationSignals: false,
    formatError,
    // A deduplicated answer's data is serialized once for all its callers (serialize/shared-answer.ts).
    stringifyResult,
    logger: logger.child({ component: 'apollo-server' }),
    plugins: [
      config.landingPage
        ? ApolloServerPluginLandingPageLocalDefault({ footer: false })
        : ApolloServerPluginLandingPageDisabled(),
      retired.apolloPlugin(),
      deferredDeliveryPlugin(formatError),
      // Apollo Server adds inline tracing (ftv1) only for a subgraph's schema, never a gateway's; said
      // here, it does not load the plugin and its protobuf code (~400 KB of source) to find that out.
      ApolloServerPluginInlineTraceDisabled(),
      ...plugins.flatMap((plugin) => (plugin.apollo ? [plugin.apollo] : [])),
    ],
  });

  const context = async (scope: RequestScope) => {
    let identity: Identity = {};
    for (const plugin of authenticators) {
      const found = await authenticateWith(plugin, scope, logger);
      if (found) identity = { ...identity, ...found };
    }
    const context = createContext(scope, Object.freeze(identity), config.limits.maxResponseBytes, options.estimateCost);
    // Who made the request, for its log line (absent when authentication rejected it).
    scope.identity = context.identity;
    return context;
  };
  // Only when a plugin wraps requests (tracing), so adapters pay nothing otherwise.
  const runRequest =
    wrappers.length > 0
      ? <T>(scope: RequestScope, handler: () => T): T =>
          wrappers.reduceRight<() => T>((next, wrap) => () => wrap(scope, next), handler)()
      : undefined;
  const respond = (scope: RequestScope, status: number) => {
    for (const plugin of responders) plugin.onResponse?.(scope, status);
  };
  // Inside the request's wrappers too (tracing: its span), so the request's log line joins its trace.
  const onResponse = runRequest
    ? (scope: RequestScope, status: number) => runRequest(scope, () => respond(scope, status))
    : respond;
  const streaming = config.subscriptions.enabled
    ? subscriptionEndpoint({
        settings: subscriptionSettings,
        server,
        clientKey,
        context,
        onResponse,
        ...(runRequest && { runRequest }),
        formatError: (error) => [formatError(error.toJSON())],
      })
    : undefined;

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
    adminRoutes: plugins.flatMap((plugin) => plugin.adminRoutes ?? []),
    isReady: () => state === 'ready' && readinessHolds.every((plugin) => plugin.isReady?.() !== false),
    isDraining: () => state === 'draining' || state === 'stopped',
    onResponse,
    ...(runRequest && { runRequest }),
    async start() {
      if (state !== 'created')
        throw new GatewayError(GatewayErrorCode.START_FAILED, `cannot start a gateway that is ${state}`);
      state = 'starting';
      try {
        await server.start();
      } catch (error) {
        state = 'stopped';
        await closeAll(dataSources);
        if (error instanceof GatewayError) throw error;
        throw new GatewayError(
          GatewayErrorCode.SUPERGRAPH_INVALID,
          `cannot load the supergraph ${supergraph.description}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      rejectUnknownOverrides(config, dataSources);
      state = 'ready';
      logger.info({ subgraphs: [...dataSources.keys()], supergraph: supergraph.description }, 'gateway ready');
    },
    beginDrain() {
      if (state === 'ready') state = 'draining';
      // Live subscriptions complete now, so their clients reconnect elsewhere while this instance drains.
      subscriptions.completeAll();
      streaming?.drain();
    },
    async stop() {
      if (state === 'stopped') return;
      state = 'stopped';
      subscriptions.completeAll();
      streaming?.drain();
      await server.stop();
      await closeAll(dataSources);
      await retired.closeAll();
      await Promise.all(plugins.map((plugin) => plugin.close?.()));
    },
  };
}

/**
 * Runs one plugin's `authenticate`. A rejection made with `httpError()` (401, 400…) is the
 * plugin's answer; anything else is a bug in that plugin: logged with its name and
 * answered 500 INTERNAL_SERVER_ERROR, never passed off as the client's fault.
 */
async function authenticateWith(
  plugin: GatewayPlugin,
  scope: RequestScope,
  logger: Logger,
): Promise<Partial<Identity> | undefined> {
  try {
    return await plugin.authenticate?.(scope);
  } catch (error) {
    if (error instanceof GraphQLError && error.extensions.http) throw error;
    logger.error({ err: error, plugin: plugin.name, requestId: scope.requestId }, 'plugin authenticate hook failed');
    throw httpError(ClientErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error');
  }
}

function rejectUnknownOverrides(config: CoreSettings, dataSources: Map<string, SubgraphDataSource>): void {
  const unknown = Object.keys(config.subgraphs).filter((name) => !dataSources.has(name));
  if (unknown.length === 0) return;
  const known = [...dataSources.keys()].join(', ');
  throw new GatewayConfigError(
    unknown.map((name) => ({
      field: `subgraphs.${name} (SUBGRAPH_${name.toUpperCase()}_*)`,
      message: `the supergraph has no subgraph "${name}" (it has: ${known})`,
    })),
  );
}

async function closeAll(dataSources: Map<string, SubgraphDataSource>): Promise<void> {
  await Promise.all([...dataSources.values()].map((source) => source.close()));
}

function subscriptionSettingsOf(config: CoreSettings): SubscriptionSettings {
  const { subscriptions, limits } = config;
  return {
    ...subscriptions,
    maxConnectionsPerClient: connectionsPerClient(subscriptions.maxConnections, subscriptions.maxConnectionsPerClient),
    maxResponseBytes: limits.maxResponseBytes,
    maxTokens: limits.maxTokens,
  };
}
