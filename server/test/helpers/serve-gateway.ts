import { listenFastify } from '@fedgw/adapters/fastify';
import {
  createGatewayFromConfig,
  createLogger,
  type GatewayPlugin,
  type Logger,
  type PolicyDecider,
  parseConfig,
} from '@fedgw/gateway';
import { closedPortUrl, SUPERGRAPH_PATH } from '@fedgw/test-support';

export interface ServedGateway {
  /** The GraphQL endpoint. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A started gateway configured by `env` (as a deployment would be; subgraphs not named
 * there are down), served by bare Fastify on a free loopback port.
 */
export async function serveGateway(
  env: Record<string, string>,
  options: { logger?: Logger; plugins?: GatewayPlugin[]; policies?: PolicyDecider } = {},
): Promise<ServedGateway> {
  const config = parseConfig({
    SUPERGRAPH_PATH,
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    ...env,
  });
  const logger = options.logger ?? createLogger({ log: { level: 'silent', pretty: false } });
  const gateway = await createGatewayFromConfig(config, {
    logger,
    plugins: options.plugins ?? [],
    ...(options.policies && { policies: options.policies }),
  });
  await gateway.start();
  const server = await listenFastify(gateway, { port: 0, host: '127.0.0.1' });
  return {
    url: `${server.url}/graphql`,
    async close() {
      await server.close();
      await gateway.stop();
    },
  };
}
