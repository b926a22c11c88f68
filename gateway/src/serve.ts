import { type ListeningServer, listenExpress, listenFastify } from '@fedgw/adapters';
import type { GatewayConfig } from './config/types.js';
import { createGateway, type Gateway } from './create-gateway.js';
import type { Logger } from './logger.js';

export interface RunningGateway extends ListeningServer {
  readonly gateway: Gateway;
}

/**
 * Starts the gateway on the configured runtime and platform: `nest` (GatewayModule in
 * a NestJS app) or `bare` (the framework alone), on `fastify` or `express`.
 * `close()` stops accepting, waits for in-flight requests, then stops the gateway.
 */
export async function serveGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  if (config.runtime === 'nest') {
    // Loaded only when used, so bare runs never pay for NestJS.
    const { listenNest } = await import('./nest/bootstrap.js');
    return listenNest(config, logger);
  }
  const gateway = createGateway(config, { logger });
  await gateway.start();
  const listen = config.adapter === 'fastify' ? listenFastify : listenExpress;
  let server: ListeningServer;
  try {
    server = await listen(gateway, { port: config.port, host: config.host, timeouts: config });
  } catch (error) {
    await gateway.stop();
    throw error;
  }
  return {
    gateway,
    url: server.url,
    port: server.port,
    async close() {
      await server.close();
      await gateway.stop();
    },
  };
}
