import { once } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeGracefully, createHttpServer, type ListeningServer, listenUrl, trackConnections } from '@fedgw/adapters';
import type { Logger } from '@fedgw/gateway';
import type { AdminRoute, MetricsEndpoint, MountableGateway } from '@fedgw/gateway/contract';

/** An admin route's body is small JSON: more is refused (413) before it is read further. */
const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/**
 * METRICS_PORT: a small listener of its own that serves only the metrics path, so metrics
 * can stay off the public port (a Service or NetworkPolicy exposes only the main one).
 * Plain node:http: no framework is needed for one GET route.
 */
export async function listenMetrics(
  endpoint: MetricsEndpoint,
  host: string,
  port: number,
  adminRoutes: readonly AdminRoute[] = [],
): Promise<ListeningServer> {
  const server: Server = createHttpServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const admin = adminRoutes.find((route) => route.path === path);
    if (admin) {
      serveAdmin(admin, request, response);
      return;
    }
    if (path !== endpoint.path) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    endpoint.scrape().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  const connections = trackConnections(server);
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    url: listenUrl(host, bound),
    port: bound,
    close: () =>
      closeGracefully(
        connections,
        () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
      ),
    openConnections: connections.open,
  };
}

/** One operator route (GatewayPlugin.adminRoutes): its method only, a bounded body, a JSON answer. */
function serveAdmin(route: AdminRoute, request: IncomingMessage, response: ServerResponse): void {
  const answer = (status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  if (request.method !== route.method) {
    response.writeHead(405, { allow: route.method }).end();
    request.resume();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_ADMIN_BODY_BYTES) {
      answer(413, { error: 'body too large' });
      request.destroy();
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (size > MAX_ADMIN_BODY_BYTES) return;
    route.handle({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') }).then(
      ({ status, body }) => answer(status, body),
      () => answer(500, { error: 'failed' }),
    );
  });
}

/**
 * Opens the metrics listener when the gateway's metrics have a port of their own, and ties
 * it to `main`: closing the result closes the main server first (metrics stay scrapeable
 * while requests drain), then the metrics listener.
 */
export async function withMetricsListener<T extends ListeningServer>(
  main: T,
  gateway: Pick<MountableGateway, 'metrics' | 'adminRoutes'>,
  host: string,
  logger: Logger,
): Promise<T> {
  const endpoint = gateway.metrics;
  if (endpoint?.port === undefined) {
    // Never on the public port: without a metrics listener of their own the routes are off.
    if (gateway.adminRoutes?.length) {
      logger.warn(
        { routes: gateway.adminRoutes.map((route) => route.path) },
        'admin routes need METRICS_PORT: not served',
      );
    }
    return main;
  }
  let metrics: ListeningServer;
  try {
    metrics = await listenMetrics(endpoint, host, endpoint.port, gateway.adminRoutes);
  } catch (error) {
    await main.close();
    throw error;
  }
  logger.info({ url: `${metrics.url}${endpoint.path}` }, 'metrics listening');
  return {
    ...main,
    async close() {
      try {
        await main.close();
      } finally {
        await metrics.close();
      }
    },
  };
}
