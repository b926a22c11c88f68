import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import type {
  CreateServerForIntegrationTests,
  CreateServerForIntegrationTestsOptions,
} from '@apollo/server-integration-testsuite';
import type { ListeningServer } from '@fedgw/adapters';
import { listenExpress } from '@fedgw/adapters/express';
import { listenFastify } from '@fedgw/adapters/fastify';
import type { MountableGateway, RequestScope } from '@fedgw/gateway';
import { GatewayModule } from '@fedgw/server/nest';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';

export type Mount = 'express' | 'fastify' | 'nest-express' | 'nest-fastify';

const HOST = '127.0.0.1';
/** The testsuite sends every request to `${url}/`, so GraphQL is served at the root. */
const PATH = '/';
const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * `createServer` for `defineIntegrationTestSuite`: a started ApolloServer built from the
 * testsuite's config, wrapped in a MountableGateway and served by one of our mounts on
 * an ephemeral loopback port. `extraCleanup` closes the HTTP server (or the Nest app);
 * the testsuite stops the ApolloServer itself, before that.
 */
export function createServerFactory(mount: Mount): CreateServerForIntegrationTests {
  return async (config, options) => {
    const server = new ApolloServer({ ...config });
    await server.start();
    const gateway = mountable(server, options);
    try {
      const listening = await listen(mount, gateway);
      return { server, url: listening.url, extraCleanup: () => listening.close() };
    } catch (error) {
      await server.stop();
      throw error;
    }
  };
}

function mountable(
  server: ApolloServer,
  options: CreateServerForIntegrationTestsOptions | undefined,
): MountableGateway {
  const contextThunk = options?.context;
  return {
    server,
    path: PATH,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    // The testsuite's ContextThunk takes no arguments (it never looks at the request).
    context: (_scope: RequestScope) => (contextThunk ? contextThunk() : Promise.resolve({})),
    isReady: () => true,
  };
}

async function listen(mount: Mount, gateway: MountableGateway): Promise<ListeningServer> {
  switch (mount) {
    case 'express':
      return listenExpress(gateway, { port: 0, host: HOST });
    case 'fastify':
      return listenFastify(gateway, { port: 0, host: HOST });
    case 'nest-express':
    case 'nest-fastify':
      return listenNest(mount, gateway);
  }
}

async function listenNest(mount: 'nest-express' | 'nest-fastify', gateway: MountableGateway): Promise<ListeningServer> {
  const platform = mount === 'nest-fastify' ? new FastifyAdapter() : new ExpressAdapter();
  const app = await NestFactory.create(GatewayModule.forGateway(gateway), platform, {
    bodyParser: false,
    logger: false,
  });
  try {
    await app.listen(0, HOST);
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = (app.getHttpServer() as { address(): AddressInfo | string | null }).address();
  if (typeof address !== 'object' || address === null) throw new Error(`unexpected Nest server address: ${address}`);
  return { url: `http://${HOST}:${address.port}`, port: address.port, close: () => app.close() };
}
