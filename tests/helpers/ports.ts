import { once } from 'node:events';
import { createServer } from 'node:net';

/** A loopback URL on which nothing listens (the port was just free), to play a subgraph that is down. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/graphql`;
}
