import { json, postGraphQL, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGateway } from './helpers/serve-gateway.js';

/** Operation limits over real HTTP: each rejection is a 400 with a code, and no subgraph sees it. */
describe('operation limits', () => {
  let users: TestHttpServer;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    users = await startTestHttpServer(json({ data: { user: { id: 'user-1', name: 'Ada' } } }));
    // Production masking is on: the limit messages must survive it.
    ({ url, close } = await serveGateway({
      SUBGRAPH_USERS_URL: users.url,
      MAX_DEPTH: '3',
      MAX_ALIASES: '2',
      MAX_ROOT_FIELDS: '3',
      MAX_TOKENS: '60',
      MAX_CHARACTERS: '400',
    }));
  });
  afterAll(async () => {
    await close?.();
    await users?.close();
  });

  const rejected: [string, string, string, RegExp][] = [
    [
      'depth',
      '{ user(id: "user-1") { orders { product { id } } } }',
      'MAX_DEPTH_LIMIT',
      /4 levels deep; the limit is 3/,
    ],
    [
      'aliases',
      '{ a: user(id: "1") { id } b: user(id: "2") { id } c: user(id: "3") { id } }',
      'MAX_ALIASES_LIMIT',
      /3 aliases; the limit is 2/,
    ],
    [
      'root fields',
      '{ user(id: "1") { id } me { id } users { totalCount } topProducts { id } }',
      'MAX_ROOT_FIELDS_LIMIT',
      /4 root fields; the limit is 3/,
    ],
    [
      'tokens',
      `{ user(id: "1") { ${'id '.repeat(60)} } }`,
      'GRAPHQL_PARSE_FAILED',
      /Document contains more tha[nt] 60 tokens/,
    ],
    ['characters', `{ user(id: "1") { id } } # ${'x'.repeat(400)}`, 'OPERATION_LIMIT_EXCEEDED', /the limit is 400/],
  ];

  it.each(rejected)('rejects too many %s with 400 and no subgraph request', async (_what, query, code, message) => {
    const before = users.requests.length;
    const result = await postGraphQL(url, { query });
    expect(result.status).toBe(400);
    expect(result.body.errors?.[0]?.extensions?.code).toBe(code);
    expect(result.body.errors?.[0]?.message).toMatch(message);
    expect(users.requests.length).toBe(before);
  });

  it('serves an operation within every limit', async () => {
    const before = users.requests.length;
    const result = await postGraphQL(url, { query: '{ user(id: "user-1") { id name } }' });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { user: { id: 'user-1', name: 'Ada' } } });
    expect(users.requests.length).toBe(before + 1);
  });

  it('hides field suggestions in production', async () => {
    const result = await postGraphQL(url, { query: '{ user(id: "1") { nam } }' });
    expect(result.status).toBe(400);
    expect(result.body.errors?.[0]?.message).toBe('Cannot query field "nam" on type "User".');
  });
});
