import { once } from 'node:events';
import { createServer } from 'node:net';

/** Any free loopback port (for helpers with no fixed port: Redis, the Router's health check). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A loopback URL on which nothing listens, to play a subgraph that is down. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/graphql`;
}
