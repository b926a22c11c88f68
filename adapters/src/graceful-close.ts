import type { Server } from 'node:http';

/**
 * Runs `close` (which stops the listener and waits for in-flight requests) while
 * closing keep-alive sockets as soon as they turn idle. Node's `server.close()` only
 * closes the sockets idle at that moment, so a client's pooled connection that finishes
 * a request afterwards would otherwise hold the server open until its keep-alive timeout.
 */
export async function closeGracefully(server: Server, close: () => Promise<void>): Promise<void> {
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  try {
    await close();
  } finally {
    clearInterval(sweep);
  }
}
