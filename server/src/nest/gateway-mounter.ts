import { type Gateway, GatewayError, GatewayErrorCode, type MountableGateway } from '@fedgw/gateway';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { GATEWAY, GATEWAY_OWNED } from './tokens.js';

/**
 * Mounts the gateway on whichever platform the Nest app was created with, through the
 * same adapters the bare servers use. Runs in onModuleInit: after Nest registered its
 * routes, before its 404 handler and before the server listens.
 * Every constructor parameter has an explicit @Inject, so DI works without decorator metadata.
 */
// biome-ignore lint/suspicious/noExplicitAny: the module mounts gateways of any context type.
type AnyGateway = MountableGateway<any> & Partial<Pick<Gateway, 'stop'>>;

@Injectable()
export class GatewayMounter implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(GATEWAY) private readonly gateway: AnyGateway,
    @Inject(GATEWAY_OWNED) private readonly owned: boolean,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onModuleInit(): Promise<void> {
    const adapter = this.adapterHost.httpAdapter;
    const platform = adapter.getType();
    // Only the adapter of the app's platform is loaded.
    if (platform === 'fastify') {
      const { mountFastify } = await import('@fedgw/adapters/fastify');
      await mountFastify(adapter.getInstance(), this.gateway);
    } else if (platform === 'express') {
      const { mountExpress, serveWebSocket } = await import('@fedgw/adapters/express');
      mountExpress(adapter.getInstance(), this.gateway);
      // Express sees no upgrade requests: the WebSocket transport listens on Nest's HTTP server.
      serveWebSocket(adapter.getHttpServer(), this.gateway);
    } else {
      throw new GatewayError(
        GatewayErrorCode.START_FAILED,
        `GatewayModule supports the express and fastify platforms, not "${platform}"`,
      );
    }
  }

  /** Nest calls this after its HTTP server closed, so in-flight requests have finished. */
  async onApplicationShutdown(): Promise<void> {
    if (this.owned) await this.gateway.stop?.();
  }
}
