import type { ServerResponse } from 'node:http';
import { eventually, type Responder, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse.js';
import type { GatewayEvent } from '../src/contract/index.js';
import { GatewayConfigError } from '../src/errors.js';
import { SubgraphDataSource, type SubgraphDataSourceOptions } from '../src/subgraph-fetch/data-source.js';
import { incomingOperation, type OperationInput, type ProcessOptions } from './helpers/operation.js';

/**
 * In-flight deduplication (SUBGRAPH_DEDUPLICATE) against a real HTTP server that holds its
 * answers until the test releases them, so concurrent fetches surely overlap.
 */
const QUERY = 'query Top { top: topProducts(first: 2) { id name } }';
const ANSWER = { data: { top: [{ id: '1', name: 'Lamp' }] } };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A server whose answers wait until `release()`; `answer` writes each. */
async function holdingServer(answer: (response: ServerResponse) => void = send(200, ANSWER)) {
  const held: ServerResponse[] = [];
  let released = false;
  const responder: Responder = (_request, response) => (released ? answer(response) : held.push(response));
  const server = await startTestHttpServer(responder);
  closers.push(() => server.close());
  const release = () => {
    released = true;
    for (const response of held.splice(0)) answer(response);
  };
  return { server, release };
}

function send(status: number, payload: unknown, type = 'application/json') {
  return (response: ServerResponse) => {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
}

function createSource(server: TestHttpServer, options: Partial<SubgraphDataSourceOptions> = {}) {
  const events: GatewayEvent[] = [];
  const source = new SubgraphDataSource({
    name: 'products',
    url: server.url,
    timeoutMs: 5_000,
    connections: 8,
    keepAliveMs: 4_000,
    deduplicate: true,
    plugins: [{ name: 'observer', onEvent: (event) => events.push(event) }],
    ...options,
  });
  closers.push(() => source.close());
  return { source, events };
}

/** A fetch of a client operation of this type, as @apollo/gateway hands it over. */
function fetchOf(
  operation: 'query' | 'mutation' | 'subscription',
  input: Partial<OperationInput> = {},
): ProcessOptions {
  return {
    ...incomingOperation({ query: QUERY, ...input }),
    incomingRequestContext: { operation: { operation } },
  } as ProcessOptions;
}

const codes = (response: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  response.errors?.map((error) => error.extensions?.code);

describe('in-flight deduplication', () => {
  it('sends identical concurrent queries once; every caller gets its own copy and its own event', async () => {
    const { server, release } = await holdingServer();
    const { source, events } = createSource(server);

    const pending = [1, 2, 3, 4, 5].map((n) => source.process(fetchOf('query', { requestId: `req-${n}` })));
    await eventually(() => expect(server.requests).toHaveLength(1));
    release();
    const responses = await Promise.all(pending);
    // Every caller is answered: any request one of them sent has reached the server by now.
    expect(server.requests).toHaveLength(1);

    for (const response of responses) expect(response).toEqual(ANSWER);
    // Separate objects: @apollo/gateway merges later fetches into what it is given.
    expect(new Set(responses.map((response) => response.data)).size).toBe(5);
    const fetches = events.filter((event) => event.type === 'subgraph-fetch');
    expect(fetches.map((event) => event.requestId).sort()).toEqual(['req-1', 'req-2', 'req-3', 'req-4', 'req-5']);
    expect(fetches.filter((event) => event.deduplicated)).toHaveLength(4);
    expect(fetches.every((event) => event.outcome === 'ok')).toBe(true);
  });

  it('sends again once the shared fetch has finished (it only merges requests in flight)', async () => {
    const { server, release } = await holdingServer();
    release();
    const { source } = createSource(server);

    await source.process(fetchOf('query'));
    await source.process(fetchOf('query'));

    expect(server.requests).toHaveLength(2);
  });

  it('never merges callers with different identities (x-user-id), but ignores the request id', async () => {
    const { server, release } = await holdingServer();
    const { source } = createSource(server);

    const pending = [
      source.process(fetchOf('query', { headers: { 'x-user-id': '1' }, requestId: 'a' })),
      source.process(fetchOf('query', { headers: { 'x-user-id': '2' }, requestId: 'b' })),
      source.process(fetchOf('query', { headers: { 'x-user-id': '1' }, requestId: 'c' })),
    ];
    await eventually(() => expect(server.requests).toHaveLength(2));
    release();
    await Promise.all(pending);

    expect(server.requests.map((request) => request.headers['x-user-id']).sort()).toEqual(['1', '2']);
  });

  it('never merges callers whose plugins set different headers', async () => {
    const { server, release } = await holdingServer();
    let tenant = 0;
    const { source } = createSource(server, {
      plugins: [
        {
          name: 'tenant',
          onSubgraphRequest: ({ headers }) => {
            headers['x-tenant'] = `t${tenant++}`;
          },
        },
      ],
    });

    const pending = [source.process(fetchOf('query')), source.process(fetchOf('query'))];
    await eventually(() => expect(server.requests).toHaveLength(2));
    release();
    await Promise.all(pending);
  });

  it("shares the entity fetches of a subscription's events (reads, as a query's are)", async () => {
    const { server, release } = await holdingServer();
    const { source } = createSource(server);

    const pending = [1, 2, 3].map((n) => source.process(fetchOf('subscription', { requestId: `sub-${n}` })));
    await eventually(() => expect(server.requests).toHaveLength(1));
    release();
    for (const response of await Promise.all(pending)) expect(response).toEqual(ANSWER);
    expect(server.requests).toHaveLength(1);
  });

  it('never merges mutations', async () => {
    const { server, release } = await holdingServer();
    const { source } = createSource(server);
    const mutation = { query: 'mutation Add { addReview(productId: "1", rating: 5, comment: "x") { id } }' };

    const pending = [source.process(fetchOf('mutation', mutation)), source.process(fetchOf('mutation', mutation))];
    await eventually(() => expect(server.requests).toHaveLength(2));
    release();
    await Promise.all(pending);
  });

  it('does nothing when off (the default)', async () => {
    const { server, release } = await holdingServer();
    const { source } = createSource(server, { deduplicate: undefined });

    const pending = [source.process(fetchOf('query')), source.process(fetchOf('query'))];
    await eventually(() => expect(server.requests).toHaveLength(2));
    release();
    await Promise.all(pending);
  });

  it('gives a failed answer to every waiter', async () => {
    const { server, release } = await holdingServer(send(500, '<html>down</html>', 'text/html'));
    const { source, events } = createSource(server);

    const pending = [1, 2, 3].map(() => source.process(fetchOf('query')));
    await eventually(() => expect(server.requests).toHaveLength(1));
    release();
    const responses = await Promise.all(pending);

    expect(server.requests).toHaveLength(1);
    for (const response of responses) expect(codes(response)).toEqual(['SUBREQUEST_HTTP_ERROR']);
    const outcomes = events.flatMap((event) => (event.type === 'subgraph-fetch' ? [event.outcome] : []));
    expect(outcomes).toEqual(['SUBREQUEST_HTTP_ERROR', 'SUBREQUEST_HTTP_ERROR', 'SUBREQUEST_HTTP_ERROR']);
  });

  it('gives a timeout to every waiter', async () => {
    const { server } = await holdingServer(); // never released
    const { source } = createSource(server, { timeoutMs: 300 });

    const responses = await Promise.all([1, 2, 3].map(() => source.process(fetchOf('query'))));

    expect(server.requests).toHaveLength(1);
    for (const response of responses) expect(codes(response)).toEqual(['GATEWAY_TIMEOUT']);
  });

  it("charges each caller's response budget: one over its limit fails alone", async () => {
    const big = { data: { top: [{ id: '1', name: 'x'.repeat(4_000) }] } };
    const { server, release } = await holdingServer(send(200, big));
    const { source } = createSource(server);

    const pending = [
      source.process(fetchOf('query', { maxResponseBytes: 1_000_000 })),
      source.process(fetchOf('query', { maxResponseBytes: 1_000 })),
      source.process(fetchOf('query', { maxResponseBytes: 1_000_000 })),
    ];
    await eventually(() => expect(server.requests).toHaveLength(1));
    release();
    const [first, small, third] = await Promise.all(pending);

    expect(server.requests).toHaveLength(1);
    expect(first).toEqual(big);
    expect(third).toEqual(big);
    expect(codes(small ?? {})).toEqual(['RESPONSE_TOO_LARGE']);
  });
});

describe('SUBGRAPH_DEDUPLICATE', () => {
  it('is off by default, on globally or per subgraph', () => {
    expect(parseConfig({}).subgraphDefaults.deduplicate).toBe(false);
    const config = parseConfig({ SUBGRAPH_DEDUPLICATE: 'true', SUBGRAPH_USERS_DEDUPLICATE: 'false' });
    expect(config.subgraphDefaults.deduplicate).toBe(true);
    expect(config.subgraphs.users?.deduplicate).toBe(false);
  });

  it('names each bad value', () => {
    let error: unknown;
    try {
      parseConfig({ SUBGRAPH_DEDUPLICATE: 'maybe', SUBGRAPH_REVIEWS_DEDUPLICATE: '2' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayConfigError);
    const fields = (error as GatewayConfigError).issues.map((issue) => issue.field);
    expect(fields.sort()).toEqual(['SUBGRAPH_DEDUPLICATE', 'SUBGRAPH_REVIEWS_DEDUPLICATE']);
  });
});
