import type { ApolloGateway } from '@apollo/gateway';
import { newApolloGateway } from '../apollo-telemetry.js';
import type { Clock } from '../clock.js';
import type { GatewayPlugin } from '../contract/index.js';
import type { CoreSettings } from '../core-settings.js';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import { deferPlanning } from '../executor/index.js';
import type { Logger } from '../logger.js';
import { observedQueryPlannerConfig } from '../query-plan-cache.js';
import { resilienceFor } from '../resilience/per-subgraph.js';
import { SubgraphDataSource } from '../subgraph-fetch/data-source.js';
import { subgraphKey } from '../subgraph-overrides.js';
import { supergraphHook } from '../supergraph/hot-reload.js';
import type { DataSourceRetirement } from '../supergraph/retire.js';
import type { SupergraphSource } from '../supergraph/source.js';

/** What the Apollo Gateway is built from; `dataSources` and `retired` are filled as subgraphs are built. */
export interface ApolloGatewayParts {
  readonly config: CoreSettings;
  readonly supergraph: SupergraphSource;
  readonly plugins: readonly GatewayPlugin[];
  readonly logger: Logger;
  readonly apolloLogger: Logger;
  readonly dataSources: Map<string, SubgraphDataSource>;
  readonly retired: DataSourceRetirement;
  /** What schedules the supergraph's polls. Default: the real clock. */
  readonly clock?: Clock;
}

/** Apollo Gateway: the supergraph hook, one data source per subgraph, the query planner's settings. */
export function createApolloGateway(parts: ApolloGatewayParts): ApolloGateway {
  const { config, supergraph, plugins, logger, apolloLogger, clock } = parts;
  return newApolloGateway(
    {
      // A hook, not a string: read when Apollo Server starts, then polled (hot reload calls `update`).
      supergraphSdl: supergraphHook({
        source: supergraph,
        pollIntervalMs: config.supergraph.pollIntervalMs,
        overrides: config.subgraphs,
        plugins,
        logger: logger.child({ component: 'supergraph' }),
        apolloTelemetry: config.apolloTelemetry,
        ...(clock ? { clock } : {}),
      }),
      buildService: subgraphServiceBuilder(parts),
      logger: apolloLogger,
      // Reports query-plan cache hits and misses to plugins that observe events (metrics); plans @defer (lean).
      queryPlannerConfig: {
        ...observedQueryPlannerConfig(plugins, logger),
        ...deferPlanning(config.queryPlanExecutor),
      },
    },
    config.apolloTelemetry,
  );
}

/** Apollo Gateway's `buildService`: a subgraph's data source, with its overrides; retires the one it replaces. */
function subgraphServiceBuilder(
  parts: ApolloGatewayParts,
): (definition: { name: string; url?: string | undefined }) => SubgraphDataSource {
  const { config, plugins, logger, dataSources, retired } = parts;
  return ({ name, url }) => {
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
  };
}
