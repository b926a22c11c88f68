import { freePort } from '../../bench/src/ports.js';

export { freePort };

/** A loopback URL on which nothing listens, to play a subgraph that is down. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/graphql`;
}
