// A Nest host application with the gateway beside its own controller, on either platform.
// Compile it (its tsconfig writes dist/), then run it with the project's Node, from the root:
//   node_modules/.bin/tsc -p docs/examples/nest-host-app
//   node_modules/node/bin/node docs/examples/nest-host-app/dist/main.js                         (Fastify)
//   NEST_PLATFORM=express node_modules/node/bin/node docs/examples/nest-host-app/dist/main.js   (Express)
// Created with Nest's defaults: body parsing stays on for the app's own routes (the gateway
// parses its own route's bodies, with its BODY_LIMIT and error shape), and no response carries
// X-Powered-By.
import 'reflect-metadata';
import { pathToFileURL } from 'node:url';
import { parseConfig } from '@fedgw/gateway';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

export async function createHostApp(
  platform: 'express' | 'fastify',
  env: Record<string, string | undefined>,
): Promise<INestApplication> {
  const adapter =
    platform === 'fastify'
      ? new (await import('@nestjs/platform-fastify')).FastifyAdapter()
      : new (await import('@nestjs/platform-express')).ExpressAdapter();
  return NestFactory.create(AppModule.withGateway(parseConfig(env)), adapter, { logger: false });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const app = await createHostApp(process.env.NEST_PLATFORM === 'express' ? 'express' : 'fastify', process.env);
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000), '0.0.0.0');
  console.log(`listening on ${await app.getUrl()} (POST /orders, /graphql)`);
}
