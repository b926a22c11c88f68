import type { ApolloServer } from '@apollo/server';
import type { GatewayContext, GatewayPlugin } from '../contract/index.js';
import type { CoreSettings } from '../core-settings.js';
import { GatewayConfigError, GatewayError, GatewayErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import type { SubgraphDataSource } from '../subgraph-fetch/data-source.js';
import type { SubscriptionRegistry } from '../subscriptions/subscription-registry.js';
import type { DataSourceRetirement } from '../supergraph/retire.js';
import type { SupergraphSource } from '../supergraph/source.js';

type State = 'created' | 'starting' | 'ready' | 'draining' | 'stopped';

export interface LifecycleParts {
  readonly config: CoreSettings;
  readonly logger: Logger;
  readonly supergraph: SupergraphSource;
  readonly plugins: readonly GatewayPlugin[];
  readonly server: ApolloServer<GatewayContext>;
  readonly dataSources: Map<string, SubgraphDataSource>;
  readonly retired: DataSourceRetirement;
  readonly subscriptions: SubscriptionRegistry;
  readonly streaming: { drain(): void } | undefined;
}

export interface Lifecycle {
  isReady(): boolean;
  isDraining(): boolean;
  start(): Promise<void>;
  beginDrain(): void;
  stop(): Promise<void>;
}

/** The gateway's states (created → starting → ready → draining → stopped) and what each step starts or closes. */
export function gatewayLifecycle(parts: LifecycleParts): Lifecycle {
  const { config, logger, supergraph, plugins, server, dataSources, retired, subscriptions, streaming } = parts;
  const readinessHolds = plugins.filter((plugin) => plugin.isReady);
  let state: State = 'created';
  return {
    isReady: () => state === 'ready' && readinessHolds.every((plugin) => plugin.isReady?.() !== false),
    isDraining: () => state === 'draining' || state === 'stopped',
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
