import { createHash } from 'node:crypto';
import { closedPortUrl, type RunningGateway, send, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Class: a malformed request answered as a server error. Every shape of a broken
// `extensions.persistedQuery` is the client's mistake: a coded 400, never logged at error.

const QUERY = '{ __typename }';
const HASH = createHash('sha256').update(QUERY).digest('hex');
let gateway: RunningGateway;
/** Any body, as a client may send it. */
const post = (body: unknown) =>
  send(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  gateway = await startGateway('fastify', {
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    GATEWAY_LOG_LEVEL: 'info',
  });
});
afterAll(async () => {
  await gateway?.stop();
});

const malformed: Array<[string, unknown, string | undefined]> = [
  ['a string', 'x', QUERY],
  ['a number', 5, QUERY],
  ['an array', [], QUERY],
  ['version as a string', { version: '1', sha256Hash: HASH }, QUERY],
  ['version 2', { version: 2, sha256Hash: HASH }, QUERY],
  ['no hash, with a query', { version: 1 }, QUERY],
  ['a numeric hash', { version: 1, sha256Hash: 5 }, undefined],
  ['a hash that is not hex', { version: 1, sha256Hash: 'z'.repeat(64) }, undefined],
  ['an upper-case hash', { version: 1, sha256Hash: HASH.toUpperCase() }, undefined],
  ['a 100 KB hash', { version: 1, sha256Hash: 'a'.repeat(100_000) }, undefined],
];

describe('a malformed extensions.persistedQuery', () => {
  it.each(malformed)(
    '%s: 400 PERSISTED_QUERY_INVALID, nothing logged at error',
    async (_name, persistedQuery, query) => {
      const result = await post({ query, extensions: { persistedQuery } });
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_INVALID');
      expect(gateway.logLines().filter((line) => Number(line.level) >= 50)).toEqual([]);
    },
  );

  it('a query with the hash of another: 400 PERSISTED_QUERY_HASH_MISMATCH, nothing logged at error', async () => {
    const other = createHash('sha256').update('{ other }').digest('hex');
    const result = await post({
      query: QUERY,
      extensions: { persistedQuery: { version: 1, sha256Hash: other } },
    });
    expect(result.status).toBe(400);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    expect(gateway.logLines().filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('leaves well-formed automatic persisted queries working: unknown, registered, then found', async () => {
    const persistedQuery = { version: 1, sha256Hash: HASH };
    const unknown = await post({ extensions: { persistedQuery } });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await post({ query: QUERY, extensions: { persistedQuery } })).body).toEqual({
      data: { __typename: 'Query' },
    });
    expect((await post({ extensions: { persistedQuery } })).body).toEqual({
      data: { __typename: 'Query' },
    });
  });
});
