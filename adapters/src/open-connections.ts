import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What holds a listener open: said in the log when a drain runs past its grace. */
export interface OpenConnections {
  /** Sockets still connected. */
  readonly sockets: number;
  /** The requests still being answered on them (`GET /graphql`, never the query string). */
  readonly requests: readonly string[];
  /** Sockets taken over by an upgrade (WebSockets). */
  readonly upgraded: number;
}

export interface TrackedConnections {
  open(): OpenConnections;
  /**
   * Closes every socket that is answering no request and was not upgraded: idle keep-alive
   * sockets, and those that never sent a whole request; and those whose request's body has not
   * all arrived and has no answer begun (a client that sent part of a body and went silent
   * would hold the drain for its whole grace: nothing runs until the body is there). Node's `closeIdleConnections()` spares
   * a socket that connected and sent nothing (a browser's or a balancer's preconnect), and
   * after `close()` nothing times it out: one such socket held a drain for its whole grace.
   */
  closeIdle(): void;
}

/**
 * Follows the sockets of `server` from now on, with the request each is answering. Public
 * events only; a Map entry per socket. Install it before the server listens.
 */
export function trackConnections(server: Server): TrackedConnections {
  // The response each socket is answering; its request is named only when `open()` asks.
  const answering = new Map<Socket, ServerResponse>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      answering.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const { socket } = req;
    answering.set(socket, res);
    res.once('close', () => {
      if (answering.get(socket) === res) answering.delete(socket);
    });
  });
  const upgraded = (socket: Socket) => !answering.has(socket) && isUpgraded(socket);
  return {
    open: () => ({
      sockets: sockets.size,
      requests: [...answering.values()].map(({ req }) => `${req.method} ${pathOf(req.url)}`),
      upgraded: [...sockets].filter(upgraded).length,
    }),
    closeIdle: () => {
      for (const socket of sockets) {
        const res = answering.get(socket);
        if (res ? isAwaitingBody(res) : !isUpgraded(socket)) socket.destroy();
      }
    },
  };
}

/** A request still being received, with nothing answered yet: no work of the gateway's is lost by cutting it. */
function isAwaitingBody(res: ServerResponse): boolean {
  return !res.req.complete && !res.headersSent;
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
