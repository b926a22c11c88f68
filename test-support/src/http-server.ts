import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the test server answers one request; it gets the request body already read. */
export type Responder = (request: IncomingMessage, response: ServerResponse, body: string) => void;

export interface TestHttpServer {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** TCP connections the server accepted. */
  readonly sockets: readonly Socket[];
  /** Sockets that have closed (from either side). */
  readonly closedSockets: number;
  /** Replaces how the server answers the next requests. */
  respondWith(responder: Responder): void;
  /** Resolves when `count` sockets have closed in total. */
  socketsClosed(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Answers every request with this JSON and HTTP status (200 by default). */
export function json(payload: unknown, status = 200): Responder {
  return (_request, response) => {
    const body = JSON.stringify(payload);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
}

/**
 * A real HTTP server on 127.0.0.1 (random port) that records every request and answers
 * as the test says. Close it in `afterEach`.
 */
export async function startTestHttpServer(responder: Responder = json({ data: {} })): Promise<TestHttpServer> {
  let current = responder;
  const requests: RecordedRequest[] = [];
  const sockets: Socket[] = [];
  let closedSockets = 0;
  const closeWaiters: Array<{ count: number; resolve: () => void }> = [];

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      current(request, response, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.push(socket);
    socket.on('close', () => {
      closedSockets++;
      for (const waiter of closeWaiters.filter((w) => w.count <= closedSockets)) {
        closeWaiters.splice(closeWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = portOf(server);

  return {
    url: `http://127.0.0.1:${port}/graphql`,
    port,
    requests,
    sockets,
    get closedSockets() {
      return closedSockets;
    },
    respondWith(next) {
      current = next;
    },
    socketsClosed(count) {
      if (closedSockets >= count) return Promise.resolve();
      return new Promise((resolve) => closeWaiters.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function portOf(server: { address(): ReturnType<Server['address']> }): number {
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('server has no TCP address');
  return address.port;
}
