import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeGracefully, type ListeningServer, listenUrl, trackConnections } from '@fedgw/adapters';
import type { Logger } from '@fedgw/gateway';
import type { MetricsEndpoint, MountableGateway } from '@fedgw/gateway/contract';

/**
 * METRICS_PORT: a small listener of its own that serves only the metrics path, so metrics
 * can stay off the public port (a Service or NetworkPolicy exposes only the main one).
 * Plain node:http: no framework is needed for one GET route.
 */
export async function listenMetrics(endpoint: MetricsEndpoint, host: string, port: number): Promise<ListeningServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
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

/**
 * Opens the metrics listener when the gateway's metrics have a port of their own, and ties
 * it to `main`: closing the result closes the main server first (metrics stay scrapeable
 * while requests drain), then the metrics listener.
 */
export async function withMetricsListener<T extends ListeningServer>(
  main: T,
  gateway: Pick<MountableGateway, 'metrics'>,
  host: string,
  logger: Logger,
): Promise<T> {
  const endpoint = gateway.metrics;
  if (endpoint?.port === undefined) return main;
  let metrics: ListeningServer;
  try {
    metrics = await listenMetrics(endpoint, host, endpoint.port);
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
