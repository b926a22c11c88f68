import type { ApolloGateway } from '@apollo/gateway';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { ClientKeyOf, GatewayContext, GatewayPlugin, RequestScope } from '../contract/index.js';
import type { CoreSettings } from '../core-settings.js';
import type { replaceExecutor } from '../execute-hooks.js';
import { overridesFor, type RandomSource, withPlanExecutor } from '../executor/index.js';
import type { Logger } from '../logger.js';
import { subscriptionEndpoint } from '../subscriptions/endpoint.js';
import { withSubscriptions } from '../subscriptions/index.js';
import { connectionsPerClient, type SubscriptionSettings } from '../subscriptions/settings.js';
import { SubscriptionRegistry } from '../subscriptions/subscription-registry.js';
import type { OnResponse, RunRequest } from './request-hooks.js';

type FormatError = (formatted: GraphQLFormattedError) => GraphQLFormattedError;

export function subscriptionSettingsOf(config: CoreSettings): SubscriptionSettings {
  const { subscriptions, limits } = config;
  return {
    ...subscriptions,
    maxConnectionsPerClient: connectionsPerClient(subscriptions.maxConnections, subscriptions.maxConnectionsPerClient),
    maxResponseBytes: limits.maxResponseBytes,
    maxTokens: limits.maxTokens,
  };
}

/** The live subscriptions, ended when a new supergraph loads (their plans and data sources are the old one's). */
export function subscriptionRegistryFor(config: CoreSettings, gateway: ApolloGateway): SubscriptionRegistry {
  const subscriptions = new SubscriptionRegistry(config.subscriptions.maxPerClient, config.subscriptions.maxOpen);
  let schemaLoads = 0;
  gateway.onSchemaLoadOrUpdate(() => {
    schemaLoads += 1;
    if (schemaLoads > 1) subscriptions.endAllForReload();
  });
  return subscriptions;
}

export interface ExecutorParts {
  readonly config: CoreSettings;
  readonly gateway: ApolloGateway;
  readonly apolloLogger: Logger;
  readonly settings: SubscriptionSettings;
  readonly registry: SubscriptionRegistry;
  readonly clientKey: ClientKeyOf;
  readonly plugins: readonly GatewayPlugin[];
  readonly formatError: FormatError;
  readonly logger: Logger;
  /** The draw for `percent(N)` progressive-override labels (default `Math.random`). */
  readonly overrideRandom?: RandomSource | undefined;
}

/** The executor chosen by QUERY_PLAN_EXECUTOR, with subscription operations run by subscriptions/. */
export function operationExecutor(parts: ExecutorParts): ReturnType<typeof replaceExecutor> {
  const { config, gateway, apolloLogger, settings, registry, clientKey, plugins, formatError, logger } = parts;
  const overrides = overridesFor(config.queryPlanExecutor, parts.overrideRandom);
  const planned = withPlanExecutor(gateway, config.queryPlanExecutor, apolloLogger, overrides, config.queryPlanner);
  return withSubscriptions(planned, gateway, {
    overrides,
    settings,
    registry,
    clientKey,
    plugins,
    formatError,
    logger: logger.child({ component: 'subscriptions' }),
  });
}

export interface StreamingParts {
  readonly config: CoreSettings;
  readonly settings: SubscriptionSettings;
  readonly clientKey: ClientKeyOf;
  readonly server: ApolloServer<GatewayContext>;
  readonly context: (scope: RequestScope) => Promise<GatewayContext>;
  readonly onResponse: OnResponse;
  readonly runRequest: RunRequest | undefined;
  readonly formatError: FormatError;
}

/** The streaming transports' endpoint (WebSocket, SSE, multipart), when subscriptions are enabled. */
export function streamingEndpoint(parts: StreamingParts): ReturnType<typeof subscriptionEndpoint> | undefined {
  const { config, settings, clientKey, server, context, onResponse, runRequest, formatError } = parts;
  return config.subscriptions.enabled
    ? subscriptionEndpoint({
        settings,
        server,
        clientKey,
        context,
        onResponse,
        ...(runRequest && { runRequest }),
        formatError: (error) => [formatError(error.toJSON())],
      })
    : undefined;
}
