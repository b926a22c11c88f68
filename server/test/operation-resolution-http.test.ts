import { json, postGraphQL, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from './helpers/captured-logger.js';
import { serveGateway } from './helpers/serve-gateway.js';

/**
 * Requests that do not resolve to one runnable operation, over real HTTP: each is a 400
 * with a code and a message that production masking keeps, no subgraph sees it, and the
 * log has one debug line for it (no stack), never an error-level line.
 */
describe('operation resolution', () => {
  let users: TestHttpServer;
  let url: string;
  let close: () => Promise<void>;
  let logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    users = await startTestHttpServer(json({ data: { user: { id: 'user-1', name: 'Ada' } } }));
    // Production defaults (masking on), but logging at debug to see where client errors go.
    const log = captureLogger('debug');
    logLines = log.lines;
    ({ url, close } = await serveGateway({ SUBGRAPH_USERS_URL: users.url }, { logger: log.logger }));
  });
  afterAll(async () => {
    await close?.();
    await users?.close();
  });

  /** The log lines written for one request (by its `x-request-id`). */
  const linesOf = (requestId: string | null) => logLines.filter((line) => line.requestId === requestId);

  const rejected: [string, string | Uint8Array, string, string][] = [
    [
      'an unknown operationName',
      JSON.stringify({ query: 'query A { user(id: "user-1") { id } }', operationName: 'B' }),
      'OPERATION_RESOLUTION_FAILURE',
      'Unknown operation named "B".',
    ],
    [
      'several operations and no operationName',
      JSON.stringify({ query: 'query A { __typename } query B { __typename }' }),
      'OPERATION_RESOLUTION_FAILURE',
      'Must provide operation name if query contains multiple operations.',
    ],
    [
      'an operationName that is not valid UTF-8',
      Buffer.concat([
        Buffer.from('{"query":"query A { __typename }","operationName":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]),
      'OPERATION_RESOLUTION_FAILURE',
      'Unknown operation named "\uFFFD\uFFFD".',
    ],
    [
      'a subscription over HTTP',
      JSON.stringify({ query: 'subscription { reviewAdded { id } }' }),
      'SUBSCRIPTION_NOT_SUPPORTED',
      'Subscriptions are served over a WebSocket (graphql-transport-ws), Server-Sent Events (Accept: text/event-stream) or multipart HTTP (Accept: multipart/mixed;subscriptionSpec=1.0), not plain HTTP.',
    ],
  ];

  it.each(rejected)('answers %s with 400, a code and its message', async (_what, body, code, message) => {
    const before = users.requests.length;
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message, extensions: { code } }] });
    expect(users.requests.length).toBe(before);

    const lines = linesOf(response.headers.get('x-request-id'));
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    const debug = lines.filter((line) => line.msg === 'client error');
    expect(debug).toEqual([expect.objectContaining({ level: 20, code, message })]);
    expect(debug[0]).not.toHaveProperty('err');
    expect(JSON.stringify(debug[0])).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('runs the named operation of several', async () => {
    const before = users.requests.length;
    const result = await postGraphQL(url, {
      query: 'query A { __typename } query B { user(id: "user-1") { id name } }',
      operationName: 'B',
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { user: { id: 'user-1', name: 'Ada' } } });
    expect(users.requests.length).toBe(before + 1);
  });

  it('still logs a server-side error at error level', async () => {
    users.respondWith(
      json({ data: { user: null }, errors: [{ message: 'database exploded', path: ['user'], extensions: {} }] }),
    );
    try {
      const result = await postGraphQL(url, { query: '{ user(id: "user-1") { id } }' });
      expect(result.status).toBe(200);
      expect(result.body.errors?.[0]?.message).toBe('Internal server error');
      const lines = linesOf(result.headers.get('x-request-id'));
      // SUBGRAPH_ERRORS=mask (production's default) redacts the subgraph's text where its answer
      // enters the gateway, so the error line names the path, and the text is logged at debug only
      // (docs/security.md#subgraph-errors).
      expect(lines.filter((line) => line.msg === 'operation error')).toEqual([
        expect.objectContaining({
          level: 50,
          err: expect.objectContaining({ message: 'Subgraph errors redacted', path: ['user'] }),
        }),
      ]);
      expect(lines.filter((line) => line.msg === 'client error')).toEqual([]);
    } finally {
      users.respondWith(json({ data: { user: { id: 'user-1', name: 'Ada' } } }));
    }
  });
});
