import { startTestHttpServer } from '@fedgw/test-support';
import type { JWK } from 'jose';

/** A JWKS endpoint on a real loopback HTTP server that counts fetches and can misbehave. */
export interface JwksServer {
  readonly url: string;
  /** GET requests received so far. */
  readonly fetches: number;
  /** Serve these keys from now on (a key rotation). */
  setKeys(keys: readonly JWK[]): void;
  /** Answer after `ms` (0: at once). */
  setDelay(ms: number): void;
  /** Answer 503 (true) or the key set (false). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export async function startJwksServer(keys: readonly JWK[]): Promise<JwksServer> {
  let current = keys;
  let delayMs = 0;
  let down = false;
  const timers = new Set<NodeJS.Timeout>();
  const server = await startTestHttpServer((_request, response) => {
    const answer = () => {
      if (response.destroyed) return;
      const body = down ? '{"error":"unavailable"}' : JSON.stringify({ keys: current });
      response.writeHead(down ? 503 : 200, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (delayMs === 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, delayMs);
    timers.add(timer);
  });
  return {
    url: server.url.replace('/graphql', '/.well-known/jwks.json'),
    get fetches() {
      return server.requests.length;
    },
    setKeys(next) {
      current = next;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    setDown(value) {
      down = value;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await server.close();
    },
  };
}
