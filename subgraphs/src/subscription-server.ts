import type { IncomingMessage, Server } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { SubgraphContext } from './context.js';

/**
 * After close(1001), how long clients get to answer the closing handshake before their sockets
 * are cut: ws would wait 30 s for each, and until then the HTTP server cannot finish closing.
 */
const CLOSE_GRACE_MS = 1_000;

export interface SubscriptionServer {
  /** Closes every WebSocket client (1001 Going away) and stops accepting new ones. */
  close(): Promise<void>;
}

type ConnectionParams = Readonly<Record<string, unknown>> | undefined;

/**
 * Serves subscriptions over graphql-ws (subprotocol `graphql-transport-ws`) on the HTTP
 * server's own port and path: upgrade requests to `path` become WebSockets, other paths are
 * refused by ws. Subscribing needs no user; resolvers get the same context shape as over HTTP.
 */
export function serveSubscriptions(httpServer: Server, schema: GraphQLSchema, path: string): SubscriptionServer {
  const wss = new WebSocketServer({ server: httpServer, path });
  const { dispose } = useServer<ConnectionParams, { request: IncomingMessage }>(
    {
      schema,
      context: ({ connectionParams, extra }): SubgraphContext => ({
        headers: connectionHeaders(extra.request, connectionParams),
      }),
    },
    wss,
  );
  return {
    async close() {
      const cutOff = setTimeout(() => {
        for (const client of wss.clients) client.terminate();
      }, CLOSE_GRACE_MS);
      try {
        await dispose();
      } finally {
        clearTimeout(cutOff);
      }
    },
  };
}

/**
 * The upgrade request's headers, plus those of the `connection_init` payload
 * (`{ headers: { 'x-user-id': ... } }`) the request lacks. The gateway sends the identity both
 * ways; where they differ the upgrade request wins, because only the gateway writes it, while
 * a payload is the kind of thing a gateway might pass on from its own client.
 */
export function connectionHeaders(request: IncomingMessage, connectionParams: ConnectionParams): Map<string, string> {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const sent = connectionParams?.headers;
  if (typeof sent === 'object' && sent !== null) {
    for (const [name, value] of Object.entries(sent)) {
      const key = name.toLowerCase();
      if (typeof value === 'string' && !headers.has(key)) headers.set(key, value);
    }
  }
  return headers;
}
