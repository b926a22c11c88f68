import type { BaseContext } from '@apollo/server';
import type { MountableGateway, RequestScope } from '@fedgw/gateway/contract';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { ListeningServer, ListenOptions } from './contract.js';
import { registerGraphql } from './fastify-graphql.js';
import { closeGracefully } from './graceful-close.js';
import { httpRequestObserver } from './http-request-metrics.js';
import { listenUrl } from './listen-url.js';
import { mainListenerMetrics } from './metrics-route.js';
import { trackConnections } from './open-connections.js';
import { HEALTH_PATH, health, READY_PATH, readiness } from './probes.js';
import { applyServerTimeouts } from './server-timeouts.js';
import { serveWebSocket } from './subscriptions/websocket.js';

/**
 * Mounts a started gateway on a Fastify instance (bare, or NestJS's through
 * `app.getHttpAdapter().getInstance()`). Everything GraphQL lives in an encapsulated
 * plugin, so its body parser, error handler and hooks never touch the host's other routes.
 */
export async function mountFastify<TContext extends BaseContext>(
  app: FastifyInstance,
  gateway: MountableGateway<TContext>,
): Promise<void> {
  observeAndDrain(app, gateway);
  addProbeRoutes(app, gateway);
  const scopes = new WeakMap<FastifyRequest, RequestScope>();
  await app.register(async (graphql) => registerGraphql(graphql, gateway, scopes));
  // The WebSocket transport listens for upgrades on the server under the Fastify instance.
  serveWebSocket(app.server, gateway);
}

/** The listener's request metrics, and `Connection: close` on every response once draining. */
function observeAndDrain<TContext extends BaseContext>(
  app: FastifyInstance,
  gateway: MountableGateway<TContext>,
): void {
  const observe = httpRequestObserver(gateway);
  if (observe) {
    app.addHook('onRequest', (request, reply, done) => {
      observe(request.raw.url, request.raw, reply.raw);
      done();
    });
  }
  // Once draining, every response says `Connection: close`, so keep-alive clients leave
  // before the listener closes. Decided when it is sent: a request that started before
  // SIGTERM is answered after it.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (gateway.isDraining?.()) reply.header('connection', 'close');
    return payload;
  });
}

/** The health and readiness probes, and the metrics route when it is on the main listener. */
function addProbeRoutes<TContext extends BaseContext>(app: FastifyInstance, gateway: MountableGateway<TContext>): void {
  app.get(HEALTH_PATH, async (_request, reply) => reply.code(200).send(health().body));
  app.get(READY_PATH, async (_request, reply) => {
    const probe = readiness(gateway);
    return reply.code(probe.status).send(probe.body);
  });
  const metrics = mainListenerMetrics(gateway);
  if (metrics) {
    app.get(metrics.path, async (_request, reply) => {
      const { contentType, body } = await metrics.scrape();
      return reply.code(200).type(contentType).send(body);
    });
  }
}

/** A bare Fastify server (no NestJS) serving the gateway. */
export async function listenFastify<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  options: ListenOptions,
): Promise<ListeningServer> {
  // Our own request log replaces Fastify's; 503 for requests that arrive while closing.
  const app = Fastify({ logger: false, return503OnClosing: true });
  await mountFastify(app, gateway);
  if (options.timeouts) applyServerTimeouts(app.server, options.timeouts, gateway);
  const connections = trackConnections(app.server);
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: listenUrl(options.host, port),
    port,
    close: () => closeGracefully(connections, () => app.close()),
    openConnections: connections.open,
  };
}
