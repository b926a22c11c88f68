import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Bounds what a client that does not read its answers can make the server hold:
 * - at most `maxPipelined` requests outstanding on one connection (sent, not yet answered):
 *   a client that pipelines more without reading has its connection closed, instead of every
 *   answer being built and buffered at once (browsers and HTTP clients do not pipeline);
 * - an answer whose bytes stay unread: a connection with bytes waiting to be written that
 *   makes no progress for `stalledWriteMs` is closed, and its buffer freed.
 */
export interface UnreadResponseLimits {
  readonly maxPipelined: number;
  readonly stalledWriteMs: number;
}

export const UNREAD_RESPONSE_DEFAULTS: UnreadResponseLimits = { maxPipelined: 8, stalledWriteMs: 30_000 };

const outstanding = new WeakMap<Socket, number>();

export function limitUnreadResponses(server: Server, limits: UnreadResponseLimits = UNREAD_RESPONSE_DEFAULTS): void {
  // First of the request listeners: a connection over the limit is closed before the app starts
  // the request (the adapters skip requests whose connection is already closed).
  server.prependListener('request', (req, res) => {
    const socket = req.socket;
    const count = (outstanding.get(socket) ?? 0) + 1;
    outstanding.set(socket, count);
    res.once('close', () => outstanding.set(socket, (outstanding.get(socket) ?? 1) - 1));
    if (count > limits.maxPipelined) socket.destroy();
  });
  // Sockets with bytes waiting, and how many were waiting when last seen (progress resets the clock).
  const waiting = new Map<Socket, { bytes: number; since: number }>();
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const socket of sockets) {
        const bytes = socket.writableLength;
        if (bytes === 0 || socket.destroyed) {
          waiting.delete(socket);
          continue;
        }
        const seen = waiting.get(socket);
        if (!seen || bytes < seen.bytes) waiting.set(socket, { bytes, since: now });
        else if (now - seen.since >= limits.stalledWriteMs) {
          waiting.delete(socket);
          socket.destroy();
        }
      }
    },
    Math.min(1000, limits.stalledWriteMs),
  );
  sweep.unref();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      waiting.delete(socket);
    });
  });
  server.once('close', () => clearInterval(sweep));
}
