import { json, type Responder } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { dataSources } from './helpers/data-source.js';
import { incomingOperation, type OperationInput, type ProcessOptions } from './helpers/operation.js';

/**
 * Retries in the data source, against a real HTTP server: what is retried (queries, on
 * failures where no answer came), what is not, and what observers are told.
 */
const ROOT_QUERY = 'query TwoRoots { me { id name } top: topProducts(first: 2) { id } }';
const ANSWER = { data: { me: { id: '1', name: 'Ann' }, top: [] } };
const RETRY = { maxRetries: 1, backoffMs: 1, budgetRatio: 1, budgetMinPerSecond: 100 };

const { startServer, createSource } = dataSources({ connections: 2, retry: RETRY });

/** A fetch of a client operation of this type (`query`, `mutation`), as @apollo/gateway hands it over. */
function fetchOf(operation: 'query' | 'mutation', input: OperationInput = { query: ROOT_QUERY }): ProcessOptions {
  return { ...incomingOperation(input), incomingRequestContext: { operation: { operation } } } as ProcessOptions;
}

/** Answers the first `failures` requests with `fail`, the rest with the normal answer. */
function failingFirst(failures: number, fail: Responder): Responder {
  let seen = 0;
  return (request, response, body) =>
    seen++ < failures ? fail(request, response, body) : json(ANSWER)(request, response, body);
}
const reset: Responder = (request) => request.socket.destroy();
const status =
  (code: number): Responder =>
  (_request, response) => {
    response.writeHead(code, { 'content-type': 'text/html' });
    response.end('<html>upstream</html>');
  };
const codes = (response: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  response.errors?.map((error) => error.extensions?.code);

describe('SubgraphDataSource retries: a query fetch', () => {
  it.each([
    ['the connection reset before an answer', reset],
    ['502', status(502)],
    ['503', status(503)],
  ])('is retried after %s, and observers see the retry', async (_name, fail) => {
    const server = await startServer(failingFirst(1, fail));
    const { source, events } = createSource(server.url);

    const response = await source.process(fetchOf('query'));

    expect(response).toEqual(ANSWER);
    expect(server.requests).toHaveLength(2);
    expect(events).toEqual([
      { type: 'subgraph-retry', subgraph: 'users', attempt: 1, code: 'SUBREQUEST_HTTP_ERROR' },
      expect.objectContaining({ type: 'subgraph-fetch', outcome: 'ok', retries: 1, requestId: 'req-1' }),
    ]);
  });

  it('is retried at most maxRetries times, and reports the last failure with its retries', async () => {
    const server = await startServer(reset);
    const { source, events } = createSource(server.url, { retry: { ...RETRY, maxRetries: 2 } });

    const response = await source.process(fetchOf('query'));

    expect(server.requests).toHaveLength(3);
    expect(codes(response)).toEqual(['SUBREQUEST_HTTP_ERROR', 'SUBREQUEST_HTTP_ERROR']);
    expect(events.filter((event) => event.type === 'subgraph-retry')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'subgraph-fetch', outcome: 'SUBREQUEST_HTTP_ERROR', retries: 2 });
  });

  it.each([
    ['500', status(500), 'SUBREQUEST_HTTP_ERROR'],
    ['504 (the upstream was already too slow once)', status(504), 'SUBREQUEST_HTTP_ERROR'],
    ['an HTML page with 200', status(200), 'SUBREQUEST_MALFORMED_RESPONSE'],
    ['429', status(429), 'SUBREQUEST_HTTP_ERROR'],
  ])('is not retried after %s: the subgraph answered', async (_name, fail, code) => {
    const server = await startServer(failingFirst(1, fail));
    const { source } = createSource(server.url);

    const response = await source.process(fetchOf('query'));

    expect(codes(response)).toEqual([code, code]);
    expect(server.requests).toHaveLength(1);
  });

  it('is not retried after a timeout, and the client waits no longer than the timeout', async () => {
    const server = await startServer(failingFirst(1, () => {})); // never answers the first
    const { source } = createSource(server.url, { timeoutMs: 300 });

    const started = performance.now();
    const response = await source.process(fetchOf('query'));

    expect(codes(response)).toEqual(['GATEWAY_TIMEOUT', 'GATEWAY_TIMEOUT']);
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('is not retried when its backoff would not fit in the timeout', async () => {
    const server = await startServer(reset);
    // The wait before the first retry is uniform in [0, 60 s]: it fits in 100 ms less than once in 600.
    const { source } = createSource(server.url, { timeoutMs: 100, retry: { ...RETRY, backoffMs: 60_000 } });

    const responses = [];
    for (let i = 0; i < 5; i++) responses.push(await source.process(fetchOf('query')));

    expect(responses.flatMap(codes)).toEqual(Array(10).fill('SUBREQUEST_HTTP_ERROR'));
    expect(server.requests.length).toBeLessThan(7);
  });
});

describe('SubgraphDataSource retries: never a mutation', () => {
  it('a root mutation fetch is sent once, whatever the failure', async () => {
    const server = await startServer(failingFirst(1, reset));
    const { source, events } = createSource(server.url);

    const response = await source.process(
      fetchOf('mutation', {
        query: 'mutation Add { addReview(productId: "product-1", rating: 5, comment: "x") { id } }',
      }),
    );

    expect(codes(response)).toEqual(['SUBREQUEST_HTTP_ERROR']);
    expect(server.requests).toHaveLength(1);
    expect(events.some((event) => event.type === 'subgraph-retry')).toBe(false);
  });

  it("the `_entities` query that follows a mutation's root field is not retried either", async () => {
    const server = await startServer(failingFirst(1, status(503)));
    const { source } = createSource(server.url);
    const entities =
      'query Add__users__1($representations: [_Any!]!) { _entities(representations: $representations) { ... on User { name } } }';

    const response = await source.process(
      fetchOf('mutation', { query: entities, variables: { representations: [{ __typename: 'User', id: '1' }] } }),
    );

    expect(codes(response)).toEqual(['SUBREQUEST_HTTP_ERROR']);
    expect(server.requests).toHaveLength(1);
  });

  it('nor is a fetch whose client operation is unknown (health checks, other callers)', async () => {
    const server = await startServer(failingFirst(1, reset));
    const { source } = createSource(server.url);

    await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(server.requests).toHaveLength(1);
  });
});

describe('SubgraphDataSource retries: the budget', () => {
  it('when every request fails, retries stay within ratio × requests', async () => {
    const server = await startServer(reset);
    const { source } = createSource(server.url, {
      retry: { maxRetries: 3, backoffMs: 1, budgetRatio: 0.1, budgetMinPerSecond: 0 },
    });

    for (let i = 0; i < 30; i++) await source.process(fetchOf('query'));

    // Without a budget: 30 × 4 = 120 requests.
    expect(server.requests).toHaveLength(33);
  });
});
