import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeServer {
  readonly url: string;
  /** process.hrtime.bigint() when each request's body had arrived. */
  readonly arrivals: bigint[];
  close(): Promise<void>;
}

/** A local node:http server whose answer to each request (after its body) is `respond`'s. */
export async function startFakeServer(
  respond: (body: string, index: number, res: ServerResponse, req: IncomingMessage) => void,
): Promise<FakeServer> {
  const arrivals: bigint[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      arrivals.push(process.hrtime.bigint());
      respond(body, arrivals.length - 1, res, req);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
