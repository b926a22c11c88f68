import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { BaseContext } from '@apollo/server';
import type { MountableGateway } from '@fedgw/gateway/contract';
import express, { type Router } from 'express';
import type { ListeningServer, ListenOptions } from './contract.js';
import { spareGatewayPath } from './express-host-parsers.js';
import {
  addMultipartRoute,
  addPreflightRoute,
  addProbeRoutes,
  addRequestChecks,
  addResponseObservers,
  addSseRoute,
  apolloHandler,
  bodyParsers,
  requestTracker,
  type Scopes,
} from './express-routes.js';
import { readUploads } from './express-uploads.js';
import { closeGracefully } from './graceful-close.js';
import { listenUrl } from './listen-url.js';
import { createServer } from './node-http.js';
import { trackConnections } from './open-connections.js';
import { applyServerTimeouts } from './server-timeouts.js';
import { sseHandler } from './subscriptions/sse.js';
import { serveWebSocket } from './subscriptions/websocket.js';

/**
 * Mounts a started gateway on an Express 5 app (bare, or NestJS's through
 * `app.getHttpAdapter().getInstance()`). The gateway parses its own route's bodies; body
 * parsers the app registered before (Nest's, by default) keep parsing every other route.
 * Mounting on an app turns its `X-Powered-By` header off.
 */
export function mountExpress<TContext extends BaseContext>(
  app: Pick<Router, 'use'>,
  gateway: MountableGateway<TContext>,
): void {
  // Exactly the configured path, as Fastify serves it: `/GRAPHQL` or `/graphql/` must not slip past a path-based ingress rule.
  const router = express.Router({ caseSensitive: true, strict: true });
  addResponseObservers(router, gateway);
  addProbeRoutes(router, gateway);

  const scopes: Scopes = new WeakMap();
  const trackRequest = requestTracker(gateway, scopes);
  const { parseBody, readSseBody, answerParseErrors } = bodyParsers(gateway);
  const apollo = apolloHandler(gateway, scopes);
  addRequestChecks(router, gateway);
  addPreflightRoute(router, gateway, trackRequest, scopes);
  // One graphql-sse handler: its own requests, and the subscriptions the multipart route hands it by Accept.
  const sse = sseHandler(gateway);
  addSseRoute(router, gateway, sse, readSseBody, answerParseErrors);
  addMultipartRoute(router, gateway, sse, answerParseErrors);
  router
    .route(gateway.path)
    .get(trackRequest, ...parseBody, apollo, answerParseErrors)
    .post(trackRequest, readUploads(gateway, apollo), ...parseBody, apollo, answerParseErrors);
  app.use(router);
  spareGatewayPath(app, gateway.path);
  // Nothing to gain from telling clients the framework; an Express app sends it by default.
  (app as { disable?: (setting: string) => unknown }).disable?.('x-powered-by');
}

/** A bare Express server (no NestJS) serving the gateway. */
export async function listenExpress<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  options: ListenOptions,
): Promise<ListeningServer> {
  const app = express();
  mountExpress(app, gateway);
  const server = createServer(app);
  // The WebSocket transport listens for upgrades on the HTTP server (mountExpress only sees a router).
  serveWebSocket(server, gateway);
  if (options.timeouts) applyServerTimeouts(server, options.timeouts, gateway);
  const connections = trackConnections(server);
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: listenUrl(options.host, port),
    port,
    close: () =>
      closeGracefully(
        connections,
        () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
      ),
    openConnections: connections.open,
  };
}

/** For an Express app you serve yourself: graphql-ws on its HTTP server (`mountExpress` only sees a router). */
export { serveWebSocket } from './subscriptions/websocket.js';
