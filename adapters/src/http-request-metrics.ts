import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MountableGateway } from '@fedgw/gateway/contract';
import { mainListenerMetrics } from './metrics-route.js';
import { HEALTH_PATH, READY_PATH } from './probes.js';

/** Every path the gateway does not serve shares this route label: paths are the client's to choose. */
export const OTHER_ROUTE = '_OTHER';
/** nginx's code for a client that closed the connection before an answer was sent. */
export const CLIENT_CLOSED = 499;

/**
 * What the adapters call first for each request on the main listener, when metrics are on:
 * the response's end (sent, or abandoned by the client) is counted in
 * `http_server_request_duration_seconds`, refusals made before GraphQL runs included.
 * Undefined when metrics are off, so a mount without them adds no listener.
 */
export function httpRequestObserver(
  gateway: Pick<MountableGateway, 'metrics' | 'path'>,
): ((url: string | undefined, req: IncomingMessage, res: ServerResponse) => void) | undefined {
  const record = gateway.metrics?.recordHttpRequest?.bind(gateway.metrics);
  if (!record) return undefined;
  const served = mainListenerMetrics(gateway);
  const routes = new Set([gateway.path, HEALTH_PATH, READY_PATH, ...(served ? [served.path] : [])]);
  return (url, req, res) => {
    const startedAt = process.hrtime.bigint();
    res.once('close', () => {
      const path = url === undefined ? '' : url.split('?', 1)[0];
      const route = path !== undefined && routes.has(path) ? path : OTHER_ROUTE;
      const status = res.headersSent ? res.statusCode : CLIENT_CLOSED;
      record(req.method ?? '', route, status, Number(process.hrtime.bigint() - startedAt) / 1e9);
    });
  };
}
