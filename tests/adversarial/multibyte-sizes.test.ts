import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '../../gateway/src/context.js';
import type { FetchedSubgraphResult, SubgraphRequest } from '../../gateway/src/contract/index.js';
import { entityCache } from '../../gateway/src/plugins/entity-cache/index.js';
import { SubgraphDataSource } from '../../gateway/src/subgraph-fetch/data-source.js';
import { incomingOperation } from '../../gateway/test/helpers/operation.js';

// Class: a size limit that counts characters where bytes matter. Multi-byte input (a `€` is
// three bytes in UTF-8) must count as its bytes. Other limits with multi-byte input:
// header rules (shared-breaker.test.ts), BODY_LIMIT (tests/contract/hardening-contract.test.ts),
// the entity cache's write budget, entry size and store size (below).

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

// The entity cache's sizes are bytes (what Redis keeps, what a client's write budget and an entry's
// limit are given in), but it counted an answer's characters: an entity of `€`s took three times
// what it was charged, so a client wrote three times its budget and an entry three times its limit.
describe("the entity cache's sizes count bytes", () => {
  const SDL = `
  schema @link(url: "https://specs.apollo.dev/link/v1.0") @link(url: "https://specs.apollo.dev/join/v0.3", for: EXECUTION) { query: Query }
  directive @join__type(graph: join__Graph!, key: join__FieldSet) repeatable on OBJECT
  directive @join__graph(name: String!, url: String!) on ENUM_VALUE
  scalar join__FieldSet
  enum join__Graph { PRODUCTS @join__graph(name: "products", url: "http://products") }
  type Query { version: String }
  type Product @join__type(graph: PRODUCTS, key: "id") { id: ID! name: String }
`;
  const ENTITIES = 'query($representations:[_Any!]!){_entities(representations:$representations){...on Product{name}}}';
  /** 400 `€`: 400 characters, 1,200 bytes. */
  const NAME = '€'.repeat(400);

  /** How many times the subgraph is asked for product `id` over two identical fetches through `options`' cache. */
  async function subgraphCalls(options: Parameters<typeof entityCache>[0]): Promise<number> {
    const plugin = entityCache(options);
    plugin.onSupergraph?.({ sdl: SDL, schema: undefined as never, subgraphs: ['products'] });
    let calls = 0;
    const fetch = async (): Promise<FetchedSubgraphResult> => {
      calls++;
      return {
        result: { data: { _entities: [{ name: NAME }] } },
        headers: { 'cache-control': 'public, max-age=60' },
        fromSubgraph: true,
      };
    };
    for (let i = 0; i < 2; i++) {
      const scope = {
        requestId: 'r',
        method: 'POST',
        url: '/graphql',
        headers: {},
        ip: '203.0.113.7',
        startedAt: process.hrtime.bigint(),
        appendResponseHeader: () => {},
      };
      const request: SubgraphRequest = {
        subgraph: 'products',
        headers: {},
        context: createContext(scope, {}),
        query: ENTITIES,
        variables: { representations: [{ __typename: 'Product', id: '1' }] },
      };
      await plugin.aroundSubgraphFetch?.(request, fetch);
    }
    return calls;
  }

  it('an entity of 1,200 bytes in 400 characters is kept under limits of 2 KiB, and over a 1 KiB one not', async () => {
    expect(await subgraphCalls({ clientWriteBytes: 2048, maxEntryBytes: 2048 })).toBe(1);
    expect(await subgraphCalls({ clientWriteBytes: 1024 })).toBe(2);
    expect(await subgraphCalls({ maxEntryBytes: 1024 })).toBe(2);
  });
});
