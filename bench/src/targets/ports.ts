import { once } from 'node:events';
import { createServer } from 'node:net';

/** Throws a clear error when `port` is taken: a stray server there would be measured instead of the target. */
export async function assertPortFree(port: number, what: string, host = '127.0.0.1'): Promise<void> {
  const server = createServer();
  try {
    server.listen({ port, host, exclusive: true });
    await once(server, 'listening');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${code ?? String(error)})`;
    throw new Error(`port ${port} (${what}) ${why}: stop what listens there, or pick other ports with --base-port`);
  } finally {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  }
}
