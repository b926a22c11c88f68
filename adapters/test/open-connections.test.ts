import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackConnections } from '../src/open-connections.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A raw client socket that sent `text`, once its first answer bytes arrived (or at once when none is expected). */
async function rawClient(port: number, text: string, expectAnswer: boolean): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  cleanups.push(() => socket.destroy());
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(text);
  if (expectAnswer) await new Promise((resolve) => socket.once('data', resolve));
  else await new Promise((resolve) => setTimeout(resolve, 100));
  return socket;
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
  return { port: (server.address() as { port: number }).port, connections, stuck };
}

describe('trackConnections (what a drain past its grace waited for)', () => {
  it('counts sockets, names the requests still being answered, and counts upgraded sockets', async () => {
    const { port, connections, stuck } = await trackedServer();
    const open = connections.open;

    await rawClient(port, 'GET /done HTTP/1.1\r\nHost: x\r\n\r\n', true);
    await rawClient(port, 'POST /slow?token=secret HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', false);
    await rawClient(port, 'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n', true);

    // The query string (which may carry a token) is never named.
    expect(open()).toEqual({ sockets: 3, requests: ['POST /slow'], upgraded: 1 });
    stuck[0]?.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(open()).toEqual({ sockets: 3, requests: [], upgraded: 1 });
  });

  it('closeIdle closes idle keep-alive sockets and silent ones, never one answering a request or upgraded', async () => {
    const { port, connections, stuck } = await trackedServer();

    const keptAlive = await rawClient(port, 'GET /done HTTP/1.1\r\nHost: x\r\n\r\n', true);
    const slow = await rawClient(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', false);
    const upgraded = await rawClient(
      port,
      'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n',
      true,
    );
    // Connected, sent nothing (a preconnect): Node 24's own closeIdleConnections() leaves it open.
    const silent = await rawClient(port, '', false);
    const partial = await rawClient(port, 'GET /half HTTP/1.1\r\nHost:', false);
    connections.closeIdle();
    const closed = (socket: Socket) =>
      new Promise((resolve) => (socket.closed ? resolve(true) : socket.once('close', () => resolve(true))));
    await Promise.all([closed(keptAlive), closed(silent), closed(partial)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([slow.closed, upgraded.closed]).toEqual([false, false]);
    expect(connections.open()).toEqual({ sockets: 2, requests: ['GET /slow'], upgraded: 1 });
    stuck[0]?.end();
  });
});
