import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What holds a listener open: said in the log when a drain runs past its grace. */
export interface OpenConnections {
  /** Sockets still connected. */
  readonly sockets: number;
  /** The requests still being answered on them (`GET /graphql`), oldest first. */
  readonly requests: readonly string[];
  /** Sockets taken over by an upgrade (WebSockets). */
  readonly upgraded: number;
}

/**
 * Follows the sockets of `server` from now on, with the request each is answering, so a drain
 * that does not finish can say what it waited for. Public events only; costs a Map entry per
 * socket. An upgrade is seen when its socket stops being the server's HTTP connection.
 */
export function trackConnections(server: Server): () => OpenConnections {
  const requests = new Map<Socket, { readonly res: ServerResponse; readonly label: string }>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      requests.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const { socket } = req;
    requests.set(socket, { res, label: `${req.method} ${pathOf(req.url)}` });
    res.once('close', () => {
      if (requests.get(socket)?.res === res) requests.delete(socket);
    });
  });
  return () => {
    const upgraded = [...sockets].filter((socket) => !requests.has(socket) && isUpgraded(socket)).length;
    return { sockets: sockets.size, requests: [...requests.values()].map(({ label }) => label), upgraded };
  };
}

/** Node frees a socket's HTTP parser when it hands the socket to an `upgrade` listener. */
function isUpgraded(socket: Socket): boolean {
  return (socket as Socket & { parser?: unknown }).parser == null && !socket.destroyed;
}

function pathOf(url: string | undefined): string {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
