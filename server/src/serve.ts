import type { ListeningServer, OpenConnections } from '@fedgw/adapters';
import {
  createGatewayFromConfig,
  type Gateway,
  type GatewayConfig,
  type GatewayPlugin,
  type Logger,
  type PolicyDecider,
} from '@fedgw/gateway';
import { withMetricsListener } from './metrics-server.js';
import { loadPluginModules } from './plugin-modules.js';

export interface RunningGateway extends ListeningServer {
  readonly gateway: Gateway;
  /** While `close()` runs: what it waits for (the log says it when the grace runs out). */
  closing?(): ClosingState;
}

export interface ClosingState {
  readonly waitingFor: 'listener' | 'gateway';
  readonly open?: OpenConnections;
}

/**
 * Starts the gateway on the configured runtime and platform: `nest` (GatewayModule in
 * a NestJS app) or `bare` (the framework alone), on `fastify` or `express`. Only the
 * framework in use is loaded. `close()` stops accepting, waits for in-flight requests,
 * then stops the gateway. The plugin modules the config file names are loaded first
 * (plugin-modules.ts); `plugins` are added in code after them (a cluster worker adds its
 * readiness hold); `policies` decides `@policy` in code (a policy service).
 */
export async function serveGateway(
  config: GatewayConfig,
  logger: Logger,
  inCode: readonly GatewayPlugin[] = [],
  { policies }: { policies?: PolicyDecider } = {},
): Promise<RunningGateway> {
  const plugins = [
    ...(await loadPluginModules(config.pluginModules, { timeoutMs: config.pluginModuleTimeoutMs })),
    ...inCode,
  ];
  if (config.runtime === 'nest') {
    const { listenNest } = await import('./nest/bootstrap.js');
    return listenNest(config, logger, plugins, { ...(policies && { policies }) });
  }
  const gateway = await createGatewayFromConfig(config, { logger, plugins, ...(policies && { policies }) });
  await gateway.start();
  const listen =
    config.adapter === 'fastify'
      ? (await import('@fedgw/adapters/fastify')).listenFastify
      : (await import('@fedgw/adapters/express')).listenExpress;
  let server: ListeningServer;
  try {
    server = await listen(gateway, {
      port: config.port,
      host: config.host,
      timeouts: { ...config.http, workers: config.workers },
    });
  } catch (error) {
    await gateway.stop();
    throw error;
  }
  let waitingFor: ClosingState['waitingFor'] = 'listener';
  const running: RunningGateway = {
    gateway,
    url: server.url,
    port: server.port,
    async close() {
      await server.close();
      waitingFor = 'gateway';
      await gateway.stop();
    },
    closing: () => ({ waitingFor, open: server.openConnections?.() }),
  };
  return withMetricsListener(running, gateway, config.host, logger);
}
