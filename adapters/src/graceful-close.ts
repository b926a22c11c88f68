import type { TrackedConnections } from './open-connections.js';

/**
 * Runs `close` (which stops the listener and waits for in-flight requests) while closing,
 * every 50 ms, the sockets that answer no request: Node's `server.close()` only closes those
 * idle at that moment, so a keep-alive connection that finishes a request afterwards (or one
 * that never sent any) would otherwise hold the server open.
 */
export async function closeGracefully(connections: TrackedConnections, close: () => Promise<void>): Promise<void> {
  connections.closeIdle();
  const sweep = setInterval(() => connections.closeIdle(), 50);
  try {
    await close();
  } finally {
    clearInterval(sweep);
  }
}
