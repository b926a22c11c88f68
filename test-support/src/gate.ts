import type { IncomingMessage, ServerResponse } from 'node:http';
import { startTestHttpServer, type TestHttpServer } from './http-server.js';

/**
 * A proxy in front of a real subgraph that holds requests while closed, so a test can make
 * concurrent gateway requests provably overlap (inbound deduplication): `release` forwards
 * what it held to the subgraph, or fails it with an HTML 500.
 */
export interface Gate {
  readonly server: TestHttpServer;
  /** Requests held now: what `release` will forward or fail. */
  holding(): number;
  /** Requests received so far, held or forwarded. */
  received(): number;
  close(): void;
  release(how?: 'forward' | 'fail'): void;
  /** Forwards the held requests whose body contains `text`, and stays closed for the others. */
  releaseMatching(text: string): number;
}

/** A gate in front of `target` (a subgraph's GraphQL URL), open; it forwards `x-user-id`. */
export async function startGate(target: string): Promise<Gate> {
  let open = true;
  let received = 0;
  let held: { response: ServerResponse; body: string; headers: IncomingMessage['headers'] }[] = [];
  const forward = (response: ServerResponse, body: string, headers: IncomingMessage['headers']) => {
    const userId = headers['x-user-id'];
    void fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(typeof userId === 'string' && { 'x-user-id': userId }) },
      body,
    }).then(async (answer) => {
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(await answer.text());
    });
  };
  const server = await startTestHttpServer((request, response, body) => {
    received += 1;
    if (open) forward(response, body, request.headers);
    else held.push({ response, body, headers: request.headers });
  });
  return {
    server,
    holding: () => held.length,
    received: () => received,
    close: () => {
      open = false;
    },
    release(how = 'forward') {
      open = true;
      for (const { response, body, headers } of held) {
        if (how === 'forward') forward(response, body, headers);
        else response.writeHead(500, { 'content-type': 'text/html' }).end('<html>down</html>');
      }
      held = [];
    },
    releaseMatching(text) {
      const matching = held.filter(({ body }) => body.includes(text));
      held = held.filter((request) => !matching.includes(request));
      for (const { response, body, headers } of matching) forward(response, body, headers);
      return matching.length;
    },
  };
}
