import { Body, Controller, Post } from '@nestjs/common';

/**
 * The host application's own route, beside the gateway: a JSON POST that relies on Nest's
 * body parser, which GatewayModule leaves on for everything but the gateway's own path.
 */
@Controller('orders')
export class OrdersController {
  @Post()
  create(@Body() order: { item?: unknown; quantity?: unknown }): { accepted: true; order: unknown } {
    return { accepted: true, order };
  }
}
