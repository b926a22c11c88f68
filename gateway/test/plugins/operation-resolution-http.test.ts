import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { listenFastify } from '@fedgw/adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphQL } from '../../../tests/helpers/graphql.js';
import { parseConfig } from '../../src/config/parse.js';
import { createGateway } from '../../src/create-gateway.js';
import { createLogger } from '../../src/logger.js';
import { closedPortUrl, json, startTestHttpServer, type TestHttpServer } from '../helpers/http-server.js';

const SUPERGRAPH = fileURLToPath(new URL('../../../supergraph.graphql', import.meta.url));

/**
 * Requests that do not resolve to one runnable operation, over real HTTP: each is a 400
 * with a code and a message that production masking keeps, no subgraph sees it, and the
 * log has one debug line for it (no stack), never an error-level line.
 */
describe('operation resolution', () => {
  let users: TestHttpServer;
  let url: string;
  let close: () => Promise<void>;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    users = await startTestHttpServer(json({ data: { user: { id: 'user-1', name: 'Ada' } } }));
    // Production defaults (masking on), but logging at debug to see where client errors go.
    const config = parseConfig({
      SUPERGRAPH_PATH: SUPERGRAPH,
      SUBGRAPH_USERS_URL: users.url,
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
        done();
      },
    });
    const logger = createLogger({ logLevel: 'debug', logPretty: false }, sink);
    const gateway = createGateway(config, { logger });
    await gateway.start();
    const server = await listenFastify(gateway, { port: 0, host: '127.0.0.1' });
    url = `${server.url}/graphql`;
    close = async () => {
      await server.close();
      await gateway.stop();
    };
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
      JSON.stringify({ query: 'subscription { __typename }' }),
      'SUBSCRIPTION_NOT_SUPPORTED',
      'The schema has no subscription root type; subscriptions are not supported.',
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
      expect(lines.filter((line) => line.msg === 'operation error')).toEqual([
        expect.objectContaining({ level: 50, err: expect.objectContaining({ message: 'database exploded' }) }),
      ]);
      expect(lines.filter((line) => line.msg === 'client error')).toEqual([]);
    } finally {
      users.respondWith(json({ data: { user: { id: 'user-1', name: 'Ada' } } }));
    }
  });
});
