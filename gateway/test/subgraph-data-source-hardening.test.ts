import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closedPortUrl, json, startTestHttpServer, type TestHttpServer, writeEndlessBody } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayPlugin } from '../src/contract/index.js';
import { headerRules } from '../src/plugins/header-rules/index.js';
import { SubgraphDataSource, type SubgraphDataSourceOptions } from '../src/subgraph-fetch/data-source.js';
import { captureLogger } from './helpers/captured-logger.js';
import { incomingOperation } from './helpers/operation.js';

/**
 * What a misbehaving subgraph (or a proxy in front of it) can do to the data source, and
 * what must not follow: a poisoned pooled connection, unbounded memory, a silent failure.
 */
const ROOT_QUERY = 'query TwoRoots { me { id name } top: topProducts(first: 2) { id } }';
const MB = 1024 * 1024;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function createSource(url: string, options: Partial<SubgraphDataSourceOptions> = {}): SubgraphDataSource {
  const source = new SubgraphDataSource({
    name: 'users',
    url,
    timeoutMs: 3_000,
    connections: 1,
    keepAliveMs: 4_000,
    ...options,
  });
  closers.push(() => source.close());
  return source;
}

async function startServer(...args: Parameters<typeof startTestHttpServer>): Promise<TestHttpServer> {
  const server = await startTestHttpServer(...args);
  closers.push(() => server.close());
  return server;
}

/** A raw node:http server answering as `handle` says; it sees the request before its body is read. */
async function startRawServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; connections: () => number }> {
  const server = createServer(handle);
  let connections = 0;
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/graphql`, server, connections: () => connections };
}

const codes = (response: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  response.errors?.map((error) => error.extensions?.code);

describe('SubgraphDataSource: a subgraph that answers before reading the request body', () => {
  it('does not reuse that connection: the next query on the same pool is answered, not timed out', async () => {
    // Reads at most 1 MB of a body, then answers 413 and leaves the rest unread on a kept-alive socket.
    const subgraph = await startRawServer(async (req, res) => {
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MB) {
          res.writeHead(413, { 'content-type': 'application/json' });
          res.end('{"errors":[{"message":"too large"}]}');
          return;
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{"me":{"id":"1","name":"Ann"},"top":[]}}');
    });
    const source = createSource(subgraph.url, { timeoutMs: 3_000 });

    const large = await source.process(
      incomingOperation({ query: ROOT_QUERY, variables: { padding: 'x'.repeat(1.5 * MB) } }),
    );
    const next = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(large.errors?.length).toBeGreaterThan(0);
    expect(next).toEqual({ data: { me: { id: '1', name: 'Ann' }, top: [] } });
    expect(subgraph.connections()).toBe(2);
  });
});

describe('SubgraphDataSource: response size cap', () => {
  it('refuses a body whose content-length is over maxResponseBytes, and the pool keeps working', async () => {
    const big = JSON.stringify({ data: { me: { id: '1', name: 'x'.repeat(2 * MB) } } });
    const server = await startServer(json(JSON.parse(big)));
    const source = createSource(server.url, { maxResponseBytes: MB });

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));
    server.respondWith(json({ data: { me: null, top: [] } }));
    const next = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(response.data).toBeUndefined();
    expect(response.errors).toEqual([
      {
        message: `Subgraph "users" answered with more than ${MB} bytes.`,
        path: ['me'],
        extensions: { code: 'SUBGRAPH_RESPONSE_TOO_LARGE' },
      },
      {
        message: `Subgraph "users" answered with more than ${MB} bytes.`,
        path: ['top'],
        extensions: { code: 'SUBGRAPH_RESPONSE_TOO_LARGE' },
      },
    ]);
    expect(next).toEqual({ data: { me: null, top: [] } });
  });

  it('aborts a chunked body past the cap and closes its connection, so the subgraph stops sending', async () => {
    let written = () => 0;
    const subgraph = await startRawServer((_req, res) => {
      written = writeEndlessBody(res, '{"data":{"me":{"id":"1","name":"', '"}}}', 100 * MB);
    });
    const source = createSource(subgraph.url, { maxResponseBytes: MB });
    const closed = new Promise((resolve) =>
      subgraph.server.once('connection', (socket) => socket.on('close', resolve)),
    );

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(codes(response)).toEqual(['SUBGRAPH_RESPONSE_TOO_LARGE', 'SUBGRAPH_RESPONSE_TOO_LARGE']);
    await closed;
    // What the kernel buffered on loopback, not the 100 MB the subgraph wanted to send.
    expect(written()).toBeLessThan(20 * MB);
  });

  it('counts answers against the request budget; once spent, later fetches of that request are not sent', async () => {
    const server = await startServer(json({ data: { me: { id: '1', name: 'y'.repeat(500) }, top: [] } }));
    const source = createSource(server.url);
    const operation = incomingOperation({ query: ROOT_QUERY, maxResponseBytes: 200 });

    const first = await source.process(operation);
    const second = await source.process(operation);

    expect(codes(first)).toEqual(['RESPONSE_TOO_LARGE', 'RESPONSE_TOO_LARGE']);
    expect(codes(second)).toEqual(['RESPONSE_TOO_LARGE', 'RESPONSE_TOO_LARGE']);
    expect(server.requests).toHaveLength(1);
    expect((operation as { context: { responseBudget: { exceeded: boolean } } }).context.responseBudget.exceeded).toBe(
      true,
    );
  });
});

describe('SubgraphDataSource: answers that are not GraphQL responses', () => {
  it.each([
    ['data is a string', { data: 'oops' }],
    ['data is a list', { data: [1, 2] }],
    ['errors is not a list', { errors: 'boom' }],
    ['neither data nor errors', {}],
  ])('%s: SUBREQUEST_MALFORMED_RESPONSE on every field, with paths', async (_name, payload) => {
    const server = await startServer(json(payload));
    const source = createSource(server.url);

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(response.data).toBeUndefined();
    expect(response.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [['me'], 'SUBREQUEST_MALFORMED_RESPONSE'],
      [['top'], 'SUBREQUEST_MALFORMED_RESPONSE'],
    ]);
  });
});

describe('SubgraphDataSource: headers the gateway owns', () => {
  it("sends the gateway's request id even when a header rule propagates the client's x- headers", async () => {
    const server = await startServer();
    const source = createSource(server.url, {
      plugins: [headerRules({ all: [{ propagate: { matching: '^x-' } }] })],
    });

    await source.process(
      incomingOperation({
        query: ROOT_QUERY,
        requestId: 'gw-id-1',
        clientHeaders: { 'x-request-id': 'a b"c{}<>', 'x-tenant': 't1' },
      }),
    );

    expect(server.requests[0]?.headers['x-request-id']).toBe('gw-id-1');
    expect(server.requests[0]?.headers['x-tenant']).toBe('t1');
  });
});

describe('SubgraphDataSource: plugin hooks that throw', () => {
  const broken = (hook: 'onSubgraphRequest' | 'onSubgraphResponse'): GatewayPlugin => ({
    name: 'broken-plugin',
    [hook]: () => {
      throw new Error('plugin bug');
    },
  });

  it.each(['onSubgraphRequest', 'onSubgraphResponse'] as const)(
    '%s: answered as an internal error (not a subgraph outage) and logged with the plugin name',
    async (hook) => {
      const server = await startServer();
      const { logger, lines } = captureLogger();
      const source = createSource(server.url, { plugins: [broken(hook)], logger });

      const response = await source.process(incomingOperation({ query: ROOT_QUERY, requestId: 'r-9' }));

      expect(codes(response)).toEqual(['INTERNAL_SERVER_ERROR', 'INTERNAL_SERVER_ERROR']);
      const line = lines.find((entry) => entry.msg === 'plugin subgraph hook failed');
      expect(line).toMatchObject({ level: 50, plugin: 'broken-plugin', subgraph: 'users', requestId: 'r-9' });
      expect(lines.some((entry) => entry.msg === 'subgraph fetch failed')).toBe(false);
    },
  );
});

describe('SubgraphDataSource: failed fetches are logged', () => {
  it('one warning per failure with subgraph, code, duration and request id, never the URL', async () => {
    const url = await closedPortUrl();
    const { logger, lines } = captureLogger();
    const source = createSource(url, { logger });

    await source.process(incomingOperation({ query: ROOT_QUERY, requestId: 'req-down' }));

    const failures = lines.filter((line) => line.msg === 'subgraph fetch failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      level: 40,
      subgraph: 'users',
      code: 'SUBREQUEST_HTTP_ERROR',
      error: 'ECONNREFUSED',
      requestId: 'req-down',
    });
    expect(typeof failures[0]?.durationMs).toBe('number');
    expect(JSON.stringify(failures[0])).not.toContain(new URL(url).port);
  });

  it('at most 10 lines per subgraph per 10 s during an outage', async () => {
    const { logger, lines } = captureLogger();
    const source = createSource(await closedPortUrl(), { logger });

    for (let i = 0; i < 30; i++) await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(lines.filter((line) => line.msg === 'subgraph fetch failed')).toHaveLength(10);
  });

  it('logs a bad response with its HTTP status and no body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>secret upstream page</html>');
    });
    const { logger, lines } = captureLogger();
    const source = createSource(server.url, { logger });

    await source.process(incomingOperation({ query: ROOT_QUERY }));

    const line = lines.find((entry) => entry.msg === 'subgraph fetch failed');
    expect(line).toMatchObject({ code: 'SUBREQUEST_HTTP_ERROR', status: 502 });
    expect(JSON.stringify(line)).not.toContain('secret');
  });
});
