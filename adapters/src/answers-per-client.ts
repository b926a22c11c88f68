import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * At most `max` answers unfinished per client (`clientOf`: its address, TRUSTED_PROXIES applied, under the gateway's `clientKey`) (being built, or not yet handed to the
 * kernel); the address's further requests wait, unread by the app, until one of its answers
 * finishes or its connection closes. A client that reads sees a little latency past `max`
 * requests at once; one that does not read stops getting answers built (what it was sent is
 * freed by the byte caps or STALLED_WRITE_TIMEOUT_MS, which lets the next one start). Without
 * it, 100 requests for 8 MB answers arriving at once were all built at once: 900+ MiB.
 *
 * `starting` runs as each request starts (it may mark it refused). Event streams (graphql-sse)
 * are long-lived by design and have their own caps (SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT):
 * they neither wait nor count: `isEventStream` says which requests are (the transport choice's, so a
 * query whose Accept merely lists `text/event-stream`, urql's, is counted).
 */
export function limitAnswersPerClient(
  server: Server,
  max: number,
  starting: (req: IncomingMessage) => void,
  clientOf: (req: IncomingMessage) => string = (req) => req.socket.remoteAddress ?? '',
  isEventStream: (req: IncomingMessage) => boolean = () => false,
): void {
  const unfinished = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  const release = (address: string) => {
    const queue = waiting.get(address);
    while (queue && queue.length > 0 && (unfinished.get(address) ?? 0) < max) queue.shift()?.();
    if (queue?.length === 0) waiting.delete(address);
  };
  const emit = server.emit;
  // Ahead of every 'request' listener (the app's, the adapters'): a waiting request is not seen yet.
  server.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'request') return Reflect.apply(emit, this, [event, ...args]);
    const [req, res] = args as [IncomingMessage, ServerResponse];
    const run = () => Reflect.apply(emit, this, [event, ...args]) as boolean;
    if (isEventStream(req)) return run();
    const address = clientOf(req);
    const start = () => {
      // Closed while it waited: nobody to answer (the adapters skip it), and it takes no turn.
      if (req.socket.destroyed) return run();
      unfinished.set(address, (unfinished.get(address) ?? 0) + 1);
      let counted = true;
      const done = () => {
        if (!counted) return;
        counted = false;
        const left = (unfinished.get(address) ?? 1) - 1;
        if (left > 0) unfinished.set(address, left);
        else unfinished.delete(address);
        release(address);
      };
      res.once('finish', done);
      res.once('close', done);
      starting(req);
      run();
    };
    if ((unfinished.get(address) ?? 0) < max) start();
    else {
      const queue = waiting.get(address) ?? [];
      waiting.set(address, queue);
      queue.push(start);
    }
    return true;
  } as Server['emit'];
}
