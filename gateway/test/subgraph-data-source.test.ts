import type { IncomingHttpHeaders } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { closedPortUrl, json, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import type { GraphQLFormattedError } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { SubgraphDataSource, type SubgraphDataSourceOptions } from '../src/subgraph-fetch/data-source.js';
import { incomingOperation, type ProcessOptions } from './helpers/operation.js';

const ROOT_QUERY = 'query TwoRoots { me { id name } top: topProducts(first: 2) { id } __typename }';

const servers: TestHttpServer[] = [];
const sources: SubgraphDataSource[] = [];

async function startServer(...args: Parameters<typeof startTestHttpServer>): Promise<TestHttpServer> {
  const server = await startTestHttpServer(...args);
  servers.push(server);
  return server;
}

function createSource(url: string, options: Partial<SubgraphDataSourceOptions> = {}): SubgraphDataSource {
  const source = new SubgraphDataSource({
    name: 'users',
    url,
    timeoutMs: 10_000,
    connections: 4,
    keepAliveMs: 4_000,
    ...options,
  });
  sources.push(source);
  return source;
}

/** Closes a source the test is done with. */
async function closeSource(source: SubgraphDataSource): Promise<void> {
  await source.close();
}

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function onlyRequest(server: TestHttpServer) {
  expect(server.requests).toHaveLength(1);
  const [request] = server.requests;
  if (!request) throw new Error('no request recorded');
  return request;
}

function header(headers: IncomingHttpHeaders, name: string): string | string[] | undefined {
  return headers[name];
}

describe('SubgraphDataSource: the request it sends', () => {
  it('POSTs query, variables and operationName as JSON to the subgraph path', async () => {
    const server = await startServer();
    const source = createSource(server.url);

    await source.process(
      incomingOperation({
        query: 'query Me($id: ID!) { user(id: $id) { id } }',
        variables: { id: '7' },
        operationName: 'Me',
      }),
    );

    const request = onlyRequest(server);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/graphql');
    expect(header(request.headers, 'content-type')).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      query: 'query Me($id: ID!) { user(id: $id) { id } }',
      variables: { id: '7' },
      operationName: 'Me',
    });
  });

  it('keeps the query string of the subgraph URL', async () => {
    const server = await startServer();
    const source = createSource(`${server.url}?tenant=a`);

    await source.process(incomingOperation({ query: '{ me { id } }' }));

    expect(onlyRequest(server).url).toBe('/graphql?tenant=a');
  });

  it('sends request extensions only when there are some', async () => {
    const server = await startServer();
    const source = createSource(server.url);
    const persistedQuery = { version: 1, sha256Hash: 'abc' };

    await source.process(incomingOperation({ query: '{ me { id } }' }));
    await source.process(incomingOperation({ query: '{ me { id } }', extensions: { persistedQuery } }));

    const [plain, withExtensions] = server.requests.map((request) => JSON.parse(request.body));
    expect(plain).not.toHaveProperty('extensions');
    expect(withExtensions.extensions).toEqual({ persistedQuery });
  });

  it("sets x-request-id to the context's requestId", async () => {
    const server = await startServer();
    const source = createSource(server.url);

    await source.process(incomingOperation({ query: '{ me { id } }', requestId: 'abc-123' }));

    expect(header(onlyRequest(server).headers, 'x-request-id')).toBe('abc-123');
  });

  it("uses the context's requestId even when request.http.headers carries another x-request-id", async () => {
    const server = await startServer();
    const source = createSource(server.url);

    await source.process(
      incomingOperation({ query: '{ me { id } }', requestId: 'from-context', headers: { 'x-request-id': 'forged' } }),
    );

    expect(header(onlyRequest(server).headers, 'x-request-id')).toBe('from-context');
  });

  it('sends no x-request-id for requests that are not client operations (health checks)', async () => {
    const server = await startServer();
    const source = createSource(server.url);

    await source.process({
      kind: 'health check',
      request: { query: '{ __typename }', http: { method: 'POST', url: server.url, headers: new Map() } },
      context: {},
    } as unknown as ProcessOptions);

    expect(header(onlyRequest(server).headers, 'x-request-id')).toBeUndefined();
  });

  it('forwards the headers set on request.http.headers', async () => {
    const server = await startServer();
    const source = createSource(server.url);

    await source.process(
      incomingOperation({
        query: '{ me { id } }',
        headers: { 'x-user-id': 'u-42', authorization: 'Bearer token', 'x-tenant': 'acme' },
      }),
    );

    const { headers } = onlyRequest(server);
    expect(header(headers, 'x-user-id')).toBe('u-42');
    expect(header(headers, 'authorization')).toBe('Bearer token');
    expect(header(headers, 'x-tenant')).toBe('acme');
  });
});

describe('SubgraphDataSource: subgraph answers', () => {
  it('returns a GraphQL response with data and errors unchanged (errors: all)', async () => {
    const answer = {
      data: { me: { id: '1', name: null } },
      errors: [{ message: 'name is hidden', path: ['me', 'name'], extensions: { code: 'FORBIDDEN' } }],
      extensions: { traceId: 't-1' },
    };
    const server = await startServer(json(answer));
    const source = createSource(server.url, { errors: 'all' });

    const response = await source.process(incomingOperation({ query: '{ me { id name } }' }));

    expect(response).toEqual(answer);
  });

  it("redacts the subgraph's own error messages by default (mask), keeping path and code; codes passes client-safe ones", async () => {
    const answer = {
      data: { me: { id: '1', name: null } },
      errors: [
        { message: 'hidden: see db://secret', path: ['me', 'name'], extensions: { code: 'FORBIDDEN', sql: 'SELECT' } },
        { message: 'db://secret refused', path: ['me', 'name'] },
      ],
    };
    const server = await startServer(json(answer));
    const redacted = { message: 'Subgraph errors redacted', path: ['me', 'name'] };

    const masked = await createSource(server.url).process(incomingOperation({ query: '{ me { id name } }' }));
    expect(masked).toEqual({ ...answer, errors: [{ ...redacted, extensions: { code: 'FORBIDDEN' } }, redacted] });

    const codes = await createSource(server.url, { errors: 'codes' }).process(
      incomingOperation({ query: '{ me { id name } }' }),
    );
    expect(codes).toEqual({ ...answer, errors: [answer.errors[0], redacted] });
  });

  it('returns a GraphQL error response even when it comes with a non-2xx status', async () => {
    const answer = { errors: [{ message: 'Variable "$id" is required', extensions: { code: 'BAD_USER_INPUT' } }] };
    const server = await startServer(json(answer, 400));
    const source = createSource(server.url, { errors: 'codes' });

    const response = await source.process(incomingOperation({ query: 'query ($id: ID!) { user(id: $id) { id } }' }));

    expect(response).toEqual(answer);
  });

  it('turns a 502 HTML page into one SUBREQUEST_HTTP_ERROR error per root field, without URL or body', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1>upstream 10.0.0.7:8080 failed</body></html>';
    const server = await startServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(html);
    });
    const source = createSource(server.url);

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    const message = 'Subgraph "users" answered HTTP 502 without a GraphQL response.';
    expect(response).toEqual({
      errors: [
        { message, path: ['me'], extensions: { code: 'SUBREQUEST_HTTP_ERROR', legacyCode: 'SUBGRAPH_BAD_RESPONSE' } },
        { message, path: ['top'], extensions: { code: 'SUBREQUEST_HTTP_ERROR', legacyCode: 'SUBGRAPH_BAD_RESPONSE' } },
      ],
    });
    const serialized = JSON.stringify(response);
    expect(serialized).not.toContain(String(server.port));
    expect(serialized).not.toContain('127.0.0.1');
    expect(serialized).not.toContain('Bad Gateway');
    expect(serialized).not.toContain('10.0.0.7');
  });

  it('treats JSON that is not a GraphQL response as a bad response', async () => {
    const server = await startServer(json({ status: 'ok' }));
    const source = createSource(server.url);

    const response = await source.process(incomingOperation({ query: '{ me { id } }' }));

    expect(response.data).toBeUndefined();
    expect(response.errors).toEqual([
      {
        message: 'Subgraph "users" answered HTTP 200 without a GraphQL response.',
        path: ['me'],
        extensions: { code: 'SUBREQUEST_MALFORMED_RESPONSE', legacyCode: 'SUBGRAPH_BAD_RESPONSE' },
      },
    ]);
  });

  it('reports one error per entity field, with _entities paths, when an entity fetch fails', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html></html>');
    });
    const source = createSource(server.url, { name: 'reviews' });
    const representations = [1, 2, 3].map((id) => ({ __typename: 'User', id: String(id) }));

    const response = await source.process(
      incomingOperation({
        query:
          'query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on User { reviews { id } name } } }',
        variables: { representations },
      }),
    );

    const paths = response.errors?.map((error) => error.path);
    expect(paths).toEqual([
      ['_entities', 0, 'reviews'],
      ['_entities', 0, 'name'],
      ['_entities', 1, 'reviews'],
      ['_entities', 1, 'name'],
      ['_entities', 2, 'reviews'],
      ['_entities', 2, 'name'],
    ]);
    for (const error of response.errors ?? []) {
      expect(error.message).toBe('Subgraph "reviews" answered HTTP 502 without a GraphQL response.');
      expect(error.extensions).toEqual({ code: 'SUBREQUEST_HTTP_ERROR', legacyCode: 'SUBGRAPH_BAD_RESPONSE' });
    }
  });
});

describe('SubgraphDataSource: failures', () => {
  function expectErrorsOnRootFields(
    errors: readonly GraphQLFormattedError[] | undefined,
    message: string,
    code: string,
    legacyCode: string,
  ) {
    expect(errors).toEqual([
      { message, path: ['me'], extensions: { code, legacyCode } },
      { message, path: ['top'], extensions: { code, legacyCode } },
    ]);
  }

  it('reports SUBREQUEST_HTTP_ERROR (ECONNREFUSED) when nothing listens', async () => {
    const source = createSource(await closedPortUrl());

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(response.data).toBeUndefined();
    expectErrorsOnRootFields(
      response.errors,
      'Subgraph "users" is unavailable (ECONNREFUSED).',
      'SUBREQUEST_HTTP_ERROR',
      'SUBGRAPH_UNAVAILABLE',
    );
  });

  it('reports SUBREQUEST_HTTP_ERROR when the subgraph closes the connection without answering', async () => {
    const server = await startServer((request) => request.socket.destroy());
    const source = createSource(server.url);

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    const [first] = response.errors ?? [];
    expect(first?.extensions).toEqual({ code: 'SUBREQUEST_HTTP_ERROR', legacyCode: 'SUBGRAPH_UNAVAILABLE' });
    expect(first?.message).toMatch(/^Subgraph "users" is unavailable \([A-Za-z_ ]+\)\.$/);
    expect(response.errors).toHaveLength(2);
    expect(JSON.stringify(response)).not.toContain(String(server.port));
  });

  it('reports GATEWAY_TIMEOUT and aborts the request when the subgraph is slower than timeoutMs', async () => {
    let answered = false;
    const server = await startServer((request, response) => {
      const timer = setTimeout(() => {
        answered = true;
        json({ data: { me: null, top: [] } })(request, response, '');
      }, 20_000);
      response.on('close', () => clearTimeout(timer));
    });
    const source = createSource(server.url, { timeoutMs: 100 });

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expectErrorsOnRootFields(
      response.errors,
      'Subgraph "users" did not answer within 100 ms.',
      'GATEWAY_TIMEOUT',
      'SUBGRAPH_TIMEOUT',
    );
    // The subgraph sees its client go away: the fetch was cancelled, not left running (a fetch
    // left running would hold its connection for the 20 s answer). Watched on the connection,
    // not the response: on a busy machine the timeout can fire before the subgraph has read
    // the request, and then no response exists to close.
    await server.socketsClosed(1);
    expect(server.sockets).toHaveLength(1);
    expect(answered).toBe(false);
  });

  it('reports GATEWAY_TIMEOUT when the subgraph sends headers but stalls in the body', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":{"me":');
    });
    const source = createSource(server.url, { timeoutMs: 100 });

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expectErrorsOnRootFields(
      response.errors,
      'Subgraph "users" did not answer within 100 ms.',
      'GATEWAY_TIMEOUT',
      'SUBGRAPH_TIMEOUT',
    );
  });
});

describe('SubgraphDataSource: connection pool', () => {
  it('reuses one keep-alive connection for sequential requests', async () => {
    const server = await startServer(json({ data: { me: null } }));
    const source = createSource(server.url, { connections: 1 });

    for (let i = 0; i < 5; i++) {
      const response = await source.process(incomingOperation({ query: '{ me { id } }' }));
      expect(response).toEqual({ data: { me: null } });
    }

    expect(server.requests).toHaveLength(5);
    expect(server.sockets).toHaveLength(1);
  });

  // undici hands a connection back to its pool one event-loop turn after the answer ended
  // (its HTTP/1.1 client resumes in a setImmediate). The gateway's next fetch comes later than
  // that: a client's next request, or another client's, is read in a later turn.
  it('reuses one connection per client for requests that each follow the previous answer', async () => {
    const server = await startServer(json({ data: { me: null } }));
    const source = createSource(server.url, { connections: 8 });
    const client = async () => {
      for (let i = 0; i < 10; i++) {
        expect(await source.process(incomingOperation({ query: '{ me { id } }' }))).toEqual({ data: { me: null } });
        await nextTurn();
      }
    };

    await client();
    expect(server.sockets).toHaveLength(1);

    await Promise.all([client(), client(), client()]);
    expect(server.requests).toHaveLength(40);
    expect(server.sockets).toHaveLength(3);
  });

  it('opens at most one more connection for requests sent in the turn the previous answer ended', async () => {
    const server = await startServer(json({ data: { me: null } }));
    const source = createSource(server.url, { connections: 8 });

    for (let i = 0; i < 20; i++) await source.process(incomingOperation({ query: '{ me { id } }' }));

    expect(server.requests).toHaveLength(20);
    // The first connection is still busy for undici when the next request comes: a second one
    // takes it, and from then on the two alternate (docs/architecture.md, "Connections to a subgraph").
    expect(server.sockets.length).toBeLessThanOrEqual(2);
  });

  it('opens at most `connections` sockets under concurrent load', async () => {
    const server = await startServer((request, response, body) => {
      setTimeout(() => json({ data: { me: null } })(request, response, body), 20);
    });
    const source = createSource(server.url, { connections: 3 });

    const responses = await Promise.all(
      Array.from({ length: 12 }, () => source.process(incomingOperation({ query: '{ me { id } }' }))),
    );

    expect(responses).toEqual(Array.from({ length: 12 }, () => ({ data: { me: null } })));
    expect(server.sockets).toHaveLength(3);
  });

  it('close() closes the pooled connections', async () => {
    const server = await startServer(json({ data: { me: null } }));
    const source = createSource(server.url, { connections: 1 });
    await source.process(incomingOperation({ query: '{ me { id } }' }));
    await source.process(incomingOperation({ query: '{ me { id } }' }));
    expect(server.sockets).toHaveLength(1);
    expect(server.closedSockets).toBe(0);

    await closeSource(source);

    await server.socketsClosed(server.sockets.length);
    expect(server.closedSockets).toBe(server.sockets.length);
  });

  it('close() can be called twice', async () => {
    const server = await startServer(json({ data: { me: null } }));
    const source = createSource(server.url);
    await source.process(incomingOperation({ query: '{ me { id } }' }));
    // undici's Pool rejects a second close(); ours must not.
    await Promise.all([source.close(), source.close()]);
    await source.close();
    const after = await source.process(incomingOperation({ query: '{ me { id } }' }));
    expect(after.errors?.[0]?.extensions?.code).toBe('SUBREQUEST_HTTP_ERROR');
  });

  it('close() lets a request in flight finish', async () => {
    const server = await startServer((request, response, body) => {
      setTimeout(() => json({ data: { me: { id: '1' } } })(request, response, body), 100);
    });
    const source = createSource(server.url);

    const pending = source.process(incomingOperation({ query: '{ me { id } }' }));
    await new Promise<void>((resolve) => {
      const poll = () => (server.requests.length > 0 ? resolve() : setTimeout(poll, 5));
      poll();
    });
    const closed = closeSource(source);

    await expect(pending).resolves.toEqual({ data: { me: { id: '1' } } });
    await closed;
    await server.socketsClosed(1);
  });

  it('after close(), answers with SUBREQUEST_HTTP_ERROR instead of throwing', async () => {
    const server = await startServer();
    const source = createSource(server.url);
    await closeSource(source);

    const response = await source.process(incomingOperation({ query: '{ me { id } }' }));

    expect(response.errors?.map((error) => error.extensions?.code)).toEqual(['SUBREQUEST_HTTP_ERROR']);
    expect(server.requests).toHaveLength(0);
  });
});
