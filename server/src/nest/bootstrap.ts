import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyServerTimeouts, closeGracefully, type ListeningServer, trackConnections } from '@fedgw/adapters';
import {
  clientAddressResolver,
  clientKeyResolver,
  type Gateway,
  type GatewayConfig,
  type GatewayPlugin,
  type Logger,
  type PolicyDecider,
} from '@fedgw/gateway';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { withMetricsListener } from '../metrics-server.js';
import { GatewayModule } from './gateway.module.js';
import { PinoNestLogger } from './pino-nest-logger.js';
import { GATEWAY } from './tokens.js';

export interface NestServer extends ListeningServer {
  readonly gateway: Gateway;
  readonly app: INestApplication;
}

/** Creates the NestJS app on the configured platform, with GatewayModule, and listens. */
export async function listenNest(
  config: GatewayConfig,
  logger: Logger,
  plugins: readonly GatewayPlugin[] = [],
  { policies }: { policies?: PolicyDecider } = {},
): Promise<NestServer> {
  // Only the platform in use is loaded.
  const httpAdapter =
    config.adapter === 'fastify'
      ? new (await import('@nestjs/platform-fastify')).FastifyAdapter({ logger: false, return503OnClosing: true })
      : new (await import('@nestjs/platform-express')).ExpressAdapter();
  const gatewayModule = GatewayModule.forRoot(config, { logger, plugins, ...(policies && { policies }) });
  const app = await NestFactory.create(gatewayModule, httpAdapter, {
    // This process serves nothing but the gateway, which parses its own route's bodies (its
    // limit, its error shape): Nest's app-wide parsers would only cost time. In an app of your
    // own, leave them on: GatewayModule keeps them off the gateway's route only.
    bodyParser: false,
    // Nest would log a startup error itself (without its code or cause) and abort the process:
    // let it reach main.ts, which logs code and cause as on the bare runtime.
    abortOnError: false,
    logger: new PinoNestLogger(logger.child({ component: 'nest' })),
  });
  const httpServer: Server = app.getHttpServer();
  const gateway = app.get<Gateway>(GATEWAY);
  // The same resolver the mounted gateway uses (one config): the listener's per-client turn keys on it.
  applyServerTimeouts(
    httpServer,
    { ...config.http, workers: config.workers },
    {
      clientAddress: clientAddressResolver(config),
      clientKey: clientKeyResolver(config),
      ...(gateway.subscriptions && { subscriptions: gateway.subscriptions }),
    },
  );
  const connections = trackConnections(httpServer);
  await app.listen(config.port, config.host);
  const { port } = httpServer.address() as AddressInfo;
  const server = {
    app,
    gateway,
    port,
    url: await app.getUrl(),
    close: () => closeGracefully(connections, () => app.close()),
    openConnections: connections.open,
  };
  return withMetricsListener(server, gateway, config.host, logger);
}
