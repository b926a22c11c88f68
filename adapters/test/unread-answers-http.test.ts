import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { limitUnreadBytes, refusedForUnreadBytes, UNREAD_BYTES_REFUSAL } from '../src/unread-bytes.js';

// The listener-level limits on a real HTTP server, with real sockets: what the four mounts share.

const MB = 1024 ** 2;
let server: Server | undefined;
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(
  limits: { maxPerClient: number; maxTotal: number; maxAnswersPerClient: number },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<number> {
  server = createServer();
  // Which requests are event streams is the mounts' transport choice (applyServerTimeouts passes it); here, the exact type.
  limitUnreadBytes(server, limits, undefined, undefined, (req) => req.headers.accept === 'text/event-stream');
  server.on('request', (req, res) => {
    if (refusedForUnreadBytes(req)) {
      res.writeHead(UNREAD_BYTES_REFUSAL.status, UNREAD_BYTES_REFUSAL.headers).end(UNREAD_BYTES_REFUSAL.body);
      return;
    }
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** A GET on a connection of its own that reads nothing. */
function unread(port: number, path: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  clients.push(socket);
  return socket;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * Resolves once a request for `path` has reached the server and the limits have decided about
 * it: run (the handler has been called) or made to wait.
 */
function arrival(path: string): Promise<void> {
  const target = server as Server;
  const emit = target.emit;
  return new Promise((resolve) => {
    target.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
      const result = Reflect.apply(emit, this, [event, ...args]) as boolean;
      if (event === 'request' && (args[0] as IncomingMessage).url === path) {
        target.emit = emit;
        resolve();
      }
      return result;
    } as Server['emit'];
  });
}

const big = (bytes: number) => 'x'.repeat(bytes);

describe('answers a client does not read, on the listener', () => {
  it('refuses the next request of a client holding more than half its byte cap unread, with a coded 429', async () => {
    const port = await serve({ maxPerClient: 32 * MB, maxTotal: 128 * MB, maxAnswersPerClient: 8 }, (_req, res) =>
      res.end(big(30 * MB)),
    );
    const answered = arrival('/big');
    unread(port, '/big');
    await answered; // its 30 MB are queued on the socket
    const next = await get(port, '/small');
    expect(next.status).toBe(429);
    expect(JSON.parse(next.body).errors[0].extensions.code).toBe('UNREAD_ANSWERS_LIMIT_EXCEEDED');
  });

  it('closes the connection holding the most once a client passes its byte cap', async () => {
    const port = await serve({ maxPerClient: 4 * MB, maxTotal: 128 * MB, maxAnswersPerClient: 8 }, (_req, res) =>
      res.end(big(30 * MB)),
    );
    const closedByServer = new Promise((resolve) =>
      server?.once('connection', (serverSide: Socket) => serverSide.once('close', resolve)),
    );
    const socket = unread(port, '/big');
    let received = 0;
    await closedByServer;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.resume();
    await once(socket, 'close');
    expect(received).toBeLessThan(30 * MB);
  });

  it("makes a client's requests past the limit wait for one of its answers, and lets event streams through", async () => {
    const held: ServerResponse[] = [];
    const handled: string[] = [];
    const port = await serve({ maxPerClient: 32 * MB, maxTotal: 128 * MB, maxAnswersPerClient: 1 }, (req, res) => {
      handled.push(req.url ?? '');
      if (req.url === '/hold' || req.url === '/stream') held.push(res);
      else res.end('ok');
    });
    const holding = arrival('/hold');
    const first = get(port, '/hold');
    await holding;
    // An event stream neither waits nor counts.
    const streaming = arrival('/stream');
    void get(port, '/stream', { accept: 'text/event-stream' });
    await streaming;
    expect(held).toHaveLength(2);
    let second = false;
    const queued = arrival('/answer');
    const waiting = get(port, '/answer').then((result) => {
      second = true;
      return result;
    });
    await queued;
    expect(handled).toEqual(['/hold', '/stream']); // arrived, and waits unread
    expect(second).toBe(false);
    held[0]?.end('done');
    expect((await first).body).toBe('done');
    expect(await waiting).toEqual({ status: 200, body: 'ok' });
    held[1]?.end();
  });
});
