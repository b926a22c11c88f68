import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * The first of `count` consecutive loopback ports that are free right now (a random range,
 * retried). Drawn below Linux's ephemeral range (32768–60999), so that the servers other
 * tests start on port 0, and every outgoing connection, cannot take one of them between
 * this check and the bench binding it.
 */
export async function freeConsecutivePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * (32_000 - 20_000));
    const free = await Promise.all(Array.from({ length: count }, (_, i) => isFree(first + i)));
    if (free.every(Boolean)) return first;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  }
}
