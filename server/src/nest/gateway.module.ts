import {
  createGatewayFromConfig,
  createLogger,
  type GatewayConfig,
  type GatewayPlugin,
  type Logger,
  type MountableGateway,
  type PolicyDecider,
} from '@fedgw/gateway';
import { type DynamicModule, type InjectionToken, Module, type ModuleMetadata } from '@nestjs/common';
import { GatewayMounter } from './gateway-mounter.js';
import { GATEWAY, GATEWAY_CONFIG, GATEWAY_LOGGER, GATEWAY_OWNED } from './tokens.js';

export interface GatewayModuleOptions {
  /** Default: a pino logger built from the config. */
  logger?: Logger;
  /** Added in code after the plugins the config names. */
  plugins?: readonly GatewayPlugin[];
  /** Decides the supergraph's `@policy` for each request (replaces AUTHORIZATION_POLICIES). */
  policies?: PolicyDecider;
}

export interface GatewayModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  useFactory: (...args: never[]) => GatewayConfig | Promise<GatewayConfig>;
  inject?: InjectionToken[];
  logger?: Logger;
  plugins?: readonly GatewayPlugin[];
  policies?: PolicyDecider;
}

/**
 * Serves the federation gateway from a NestJS app, on the Express or the Fastify
 * platform. A thin module of our own rather than @nestjs/apollo's driver: the
 * per-platform mounting stays in adapters/, shared with the bare servers.
 */
@Module({})
export class GatewayModule {
  /** Builds and starts a gateway from a parsed config. */
  static forRoot(config: GatewayConfig, options: GatewayModuleOptions = {}): DynamicModule {
    return GatewayModule.forRootAsync({ useFactory: () => config, ...options });
  }

  /** Like forRoot, with the config from a factory (ConfigService, secrets store...). */
  static forRootAsync(options: GatewayModuleAsyncOptions): DynamicModule {
    return {
      module: GatewayModule,
      imports: options.imports ?? [],
      providers: [
        { provide: GATEWAY_CONFIG, useFactory: options.useFactory, inject: options.inject ?? [] },
        {
          provide: GATEWAY_LOGGER,
          useFactory: (config: GatewayConfig) => options.logger ?? createLogger(config),
          inject: [GATEWAY_CONFIG],
        },
        {
          provide: GATEWAY,
          useFactory: async (config: GatewayConfig, logger: Logger) => {
            const gateway = await createGatewayFromConfig(config, {
              logger,
              plugins: options.plugins ?? [],
              ...(options.policies && { policies: options.policies }),
            });
            await gateway.start();
            return gateway;
          },
          inject: [GATEWAY_CONFIG, GATEWAY_LOGGER],
        },
        { provide: GATEWAY_OWNED, useValue: true },
        GatewayMounter,
      ],
      exports: [GATEWAY, GATEWAY_CONFIG],
    };
  }

  /** Mounts a gateway that is already started and whose lifecycle the caller owns. */
  static forGateway(gateway: MountableGateway): DynamicModule {
    return {
      module: GatewayModule,
      providers: [{ provide: GATEWAY, useValue: gateway }, { provide: GATEWAY_OWNED, useValue: false }, GatewayMounter],
      exports: [GATEWAY],
    };
  }
}
