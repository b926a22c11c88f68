import type { ApolloServer, ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GraphQLFormattedError } from 'graphql';
import { apolloServerWithBatching } from '../batching/index.js';
import type { GatewayContext, GatewayPlugin } from '../contract/index.js';
import type { CoreSettings } from '../core-settings.js';
import { withExecuteHooks } from '../execute-hooks.js';
import { deferredDeliveryPlugin, streamValidationRules } from '../executor/index.js';
import type { Logger } from '../logger.js';
import { stringifyResult } from '../serialize/shared-answer.js';
import type { DataSourceRetirement } from '../supergraph/retire.js';
import { uploadsApolloPlugin } from '../uploads/apollo-plugin.js';

type GatewayInterface = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];

export interface ApolloServerParts {
  readonly config: CoreSettings;
  /** The gateway whose executor runs operations (plan executor, subscriptions). */
  readonly executor: GatewayInterface;
  readonly plugins: readonly GatewayPlugin[];
  readonly formatError: (formatted: GraphQLFormattedError) => GraphQLFormattedError;
  readonly retired: DataSourceRetirement;
  readonly logger: Logger;
}

/** Apollo Server around the gateway: limits, error formatting, and the Apollo plugins (ours and the plugins'). */
export function createApolloServer(parts: ApolloServerParts): ApolloServer<GatewayContext> {
  const { config, executor, plugins, formatError, retired, logger } = parts;
  // BATCHING_MAX_OPERATIONS > 0: batches served, each operation its own request (batching/).
  return apolloServerWithBatching(config.limits.batchingMaxOperations, {
    // Plugins' aroundExecute (inbound deduplication) run after auth, rate limit and every check, per caller.
    gateway: withExecuteHooks(executor, plugins),
    introspection: config.introspection,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: config.limits.maxTokens },
    // graphql-js stops validating after this many errors (its default is 100): an invalid
    // document's work and answer stay small.
    validationOptions: { maxErrors: 10 },
    // graphql-js 17's rules for @stream (graphql 16 has none): a misuse is refused before anything runs.
    validationRules: [...streamValidationRules],
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
      ...(config.uploads.enabled ? [uploadsApolloPlugin()] : []),
      ...plugins.flatMap((plugin) => (plugin.apollo ? [plugin.apollo] : [])),
    ],
  });
}
