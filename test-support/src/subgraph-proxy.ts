// A subgraph behind a loopback proxy: the entity cache's tests make answers cacheable (or not),
// fail some, and read what the gateway sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A subgraph behind a proxy that records what it is sent and may rewrite or fail the answer. */
export interface ProxiedSubgraph {
  readonly url: string;
  /** Headers and body of every request, oldest first. */
  readonly seen: { headers: Record<string, string>; body: string }[];
  close(): Promise<void>;
}

export async function proxySubgraph(
  target: () => string,
  answer: {
    /** The `Cache-Control` to answer with (default: the subgraph's own). */
    cacheControl?: (headers: Record<string, string>, upstream: string | null) => string | undefined;
    /** Answers 503 instead of asking the subgraph. */
    fail?: (body: string) => boolean;
    /** Rewrites the subgraph's answer (a resolver that answers differently). */
    rewrite?: (answer: string) => string;
  } = {},
): Promise<ProxiedSubgraph> {
  const seen: ProxiedSubgraph['seen'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name))
          headers[name] = value;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ headers, body });
      if (answer.fail?.(body)) {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('down');
        return;
      }
      const upstream = await fetch(target(), { method: 'POST', headers, body });
      const cacheControl =
        answer.cacheControl?.(headers, upstream.headers.get('cache-control')) ?? upstream.headers.get('cache-control');
      response.writeHead(upstream.status, {
        'content-type': 'application/json',
        ...(cacheControl && { 'cache-control': cacheControl }),
      });
      const text = await upstream.text();
      response.end(answer.rewrite ? answer.rewrite(text) : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
