import type { GatewayConfig } from '@fedgw/gateway';
import { GatewayModule } from '@fedgw/server/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { OrdersController } from './orders.controller.js';

/** A Nest application of your own that serves the gateway at /graphql beside its own routes. */
@Module({})
export class AppModule {
  static withGateway(config: GatewayConfig): DynamicModule {
    return { module: AppModule, imports: [GatewayModule.forRoot(config)], controllers: [OrdersController] };
  }
}
