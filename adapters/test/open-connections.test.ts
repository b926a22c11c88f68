import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackConnections } from '../src/open-connections.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * A raw client socket that sent `text`, once the server has read it (its HTTP parser first: a
 * whole request has reached the handler) and, when `expectAnswer`, its first answer bytes
 * arrived; `server` is its socket on the server's side.
 */
async function rawClient(
  served: { port: number; accepted: () => Promise<Socket> },
  text: string,
  expectAnswer: boolean,
): Promise<Socket & { server: Socket }> {
  const accepted = served.accepted();
  const socket = connect(served.port, '127.0.0.1');
  cleanups.push(() => socket.destroy());
  const server = await accepted;
  if (text) {
    const read = new Promise((resolve) => server.once('data', resolve));
    socket.write(text);
    await read;
  }
  if (expectAnswer) await new Promise((resolve) => socket.once('data', resolve));
  return Object.assign(socket, { server });
}

/** A server that answers `/slow…` never (its responses in `stuck`), anything else at once, and upgrades any upgrade. */
async function trackedServer() {
  const stuck: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/slow')) stuck.push(res);
    else res.end('ok');
  });
  server.on('upgrade', (_req, socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
  });
  const connections = trackConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  /** The next socket the server accepts (its 'connection' listeners, the tracker's included, have run). */
  const accepted = () => new Promise<Socket>((resolve) => server.once('connection', resolve));
  return { port: (server.address() as { port: number }).port, accepted, connections, stuck };
}

describe('trackConnections (what a drain past its grace waited for)', () => {
  it('counts sockets, names the requests still being answered, and counts upgraded sockets', async () => {
    const served = await trackedServer();
    const { connections, stuck } = served;
    const open = connections.open;

    await rawClient(served, 'GET /done HTTP/1.1\r\nHost: x\r\n\r\n', true);
    await rawClient(served, 'POST /slow?token=secret HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', false);
    await rawClient(served, 'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n', true);

    // The query string (which may carry a token) is never named.
    expect(open()).toEqual({ sockets: 3, requests: ['POST /slow'], upgraded: 1 });
    const answer = stuck[0] as ServerResponse;
    const answered = new Promise((resolve) => answer.once('close', resolve));
    answer.end();
    await answered;
    expect(open()).toEqual({ sockets: 3, requests: [], upgraded: 1 });
  });

  it('closeIdle closes idle keep-alive sockets and silent ones, never one answering a request or upgraded', async () => {
    const served = await trackedServer();
    const { connections, stuck } = served;

    const keptAlive = await rawClient(served, 'GET /done HTTP/1.1\r\nHost: x\r\n\r\n', true);
    const slow = await rawClient(served, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', false);
    const upgraded = await rawClient(
      served,
      'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n',
      true,
    );
    // Connected, sent nothing (a preconnect): Node 24's own closeIdleConnections() leaves it open.
    const silent = await rawClient(served, '', false);
    const partial = await rawClient(served, 'GET /half HTTP/1.1\r\nHost:', false);
    connections.closeIdle();
    const closed = (socket: Socket) =>
      new Promise((resolve) => (socket.closed ? resolve(true) : socket.once('close', () => resolve(true))));
    // closeIdle destroys what it closes there and then, on the server's side.
    expect([keptAlive, silent, partial, slow, upgraded].map((socket) => socket.server.destroyed)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    await Promise.all([closed(keptAlive), closed(silent), closed(partial)]);
    expect([slow.closed, upgraded.closed]).toEqual([false, false]);
    expect(connections.open()).toEqual({ sockets: 2, requests: ['GET /slow'], upgraded: 1 });
    stuck[0]?.end();
  });
});
