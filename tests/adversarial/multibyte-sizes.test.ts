import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SubgraphDataSource } from '../../gateway/src/subgraph-fetch/data-source.js';
import { incomingOperation } from '../../gateway/test/helpers/operation.js';

// Class: a size limit that counts characters where bytes matter. Multi-byte input (a `€` is
// three bytes in UTF-8) must count as its bytes. Other limits with multi-byte input:
// header rules (shared-breaker.test.ts), BODY_LIMIT (tests/contract/hardening-contract.test.ts).

const QUERY = 'query Me($padding: String) { me { id } }';
const LIMIT = 64 * 1024;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A proxy in front of a subgraph that refuses bodies over 64 KB early: it answers 413 without reading them. */
async function earlyAnsweringProxy(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server: Server = createServer((req, res) => {
    if (Number(req.headers['content-length']) > LIMIT) {
      res.writeHead(413, { 'content-type': 'text/html' });
      res.end('<h1>413 Request Entity Too Large</h1>');
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{"me":{"id":"1"}}}');
    });
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, connections: () => connections };
}

describe('the early-answer rule counts bytes', () => {
  it('a body of 30,000 `€` (90 KB, 30,000 characters) goes on a connection closed after the answer', async () => {
    const proxy = await earlyAnsweringProxy();
    const source = new SubgraphDataSource({
      name: 'users',
      url: proxy.url,
      timeoutMs: 3_000,
      connections: 1,
      keepAliveMs: 4_000,
    });
    closers.push(() => source.close());

    const large = await source.process(incomingOperation({ query: QUERY, variables: { padding: '€'.repeat(30_000) } }));
    const next = await source.process(incomingOperation({ query: QUERY }));

    expect(large.errors?.[0]?.extensions?.code).toBe('SUBREQUEST_HTTP_ERROR');
    // Reused, the socket would hold 90 KB unread in front of this query until its timeout.
    expect(next).toEqual({ data: { me: { id: '1' } } });
    expect(proxy.connections()).toBe(2);
  });
});
