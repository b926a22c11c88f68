// Attempts to read a field the supergraph guards (`User.address`, @authenticated) without a
// credential, each a different shape of the same request. None may get the value into the
// answer, and the users subgraph (behind a recording proxy) is never asked for the field.
import { createHash } from 'node:crypto';
import { type ChaosSubgraph, send, startChaosSubgraph, subgraphUrlEnv } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNamesIn } from '../support/field-names.js';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

const subgraphs = subgraphsForFile();
let users: ChaosSubgraph;
beforeAll(async () => {
  users = await startChaosSubgraph({ target: subgraphs().users.url });
});
afterAll(async () => {
  await users?.close();
});

const gateway = gatewayForBlock('fastify', () => ({
  ...subgraphUrlEnv(subgraphs()),
  SUBGRAPH_USERS_URL: users.url,
  INBOUND_DEDUPLICATE: 'true',
  SUBGRAPH_DEDUPLICATE: 'true',
}));

const post = (body: unknown) =>
  send(gateway().url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const APQ = '{ user(id: "user-2") { address } }';

const ATTEMPTS: [string, () => ReturnType<typeof post>][] = [
  ['an alias', () => post({ query: '{ user(id: "user-2") { id home: address } }' })],
  ['the field twice', () => post({ query: '{ user(id: "user-2") { address address } }' })],
  [
    'a named fragment spread twice',
    () =>
      post({
        query: '{ a: user(id: "user-2") { ...F } b: user(id: "user-3") { ...F } } fragment F on User { address }',
      }),
  ],
  ['an inline fragment without a type', () => post({ query: '{ user(id: "user-2") { ... { address } } }' })],
  [
    'nested inline fragments',
    () => post({ query: '{ user(id: "user-2") { ... on User { ... on User { address } } } }' }),
  ],
  [
    '@include(if: true) and a variable',
    () =>
      post({
        query: 'query ($x: Boolean!) { user(id: "user-2") { address @include(if: $x) } }',
        variables: { x: true },
      }),
  ],
  ['a connection of users', () => post({ query: '{ users(first: 3) { edges { node { id address } } } }' })],
  [
    'another operation of the same document',
    () =>
      post({
        query: 'query A { user(id: "user-2") { id } } query B { user(id: "user-2") { address } }',
        operationName: 'B',
      }),
  ],
  [
    'through an entity join (reviews → author)',
    () => post({ query: '{ topProducts(first: 2) { reviews { author { address } } } }' }),
  ],
  [
    'an automatic persisted query',
    async () => {
      await post({ query: APQ, extensions: { persistedQuery: { version: 1, sha256Hash: sha(APQ) } } });
      return post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha(APQ) } } });
    },
  ],
  [
    'a GET request',
    () =>
      send(`${gateway().url}?${new URLSearchParams({ query: APQ })}`, {
        headers: { 'apollo-require-preflight': 'true' },
      }),
  ],
  [
    'ten identical requests at once (inbound deduplication)',
    async () => {
      const all = await Promise.all(Array.from({ length: 10 }, () => post({ query: APQ })));
      return all[9] as Awaited<ReturnType<typeof post>>;
    },
  ],
];

describe('reading an @authenticated field without a credential', () => {
  it.each(ATTEMPTS)('%s: no value, a coded error, the subgraph never asked for it', async (_name, attempt) => {
    users.resetCounts();
    const result = await attempt();
    expect(result.status).toBe(200);
    expect(result.text).not.toContain('Main Street');
    expect(result.body.errors?.map((error) => error.extensions?.code)).toContain('UNAUTHORIZED_FIELD_OR_TYPE');
    expect(fieldNamesIn(users.requests)).not.toContain('address');
  });

  it('a misspelt or re-cased name is a validation error, not a way around', async () => {
    const result = await post({ query: '{ user(id: "user-2") { Address } }' });
    expect(result.status).toBe(400);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(result.text).not.toContain('Main Street');
  });
});

// The same for the abstract types: an @authenticated union member (InternalNote, whose bodies
// start `Call `) and an interface whose implementation SignIn needs audit:read (its ips are
// `10.0.…`), reached through every shape of fragment.
const NOTE_ATTEMPTS: [string, string][] = [
  ['an inline fragment', '{ search(text: "call") { ... on InternalNote { body } } }'],
  ['an alias in the fragment', '{ search(text: "call") { ... on InternalNote { text: body } } }'],
  ['a named fragment', '{ search(text: "call") { ...N } } fragment N on InternalNote { body }'],
  ['a fragment without a type around it', '{ search(text: "call") { ... { ... on InternalNote { body } } } }'],
  [
    'a fragment on the union around it',
    '{ search(text: "call") { ... on SearchResult { ... on InternalNote { body } } } }',
  ],
  [
    'a named fragment on the union spreading the member',
    '{ search(text: "call") { ...R } } fragment R on SearchResult { ... on InternalNote { body } }',
  ],
  ['a sign-in through its interface', '{ user(id: "user-1") { timeline { ... on SignIn { ip } } } }'],
  [
    'a sign-in through a fragment on the interface',
    '{ user(id: "user-1") { timeline { ... on TimelineEvent { id } } } }',
  ],
  ['the interface field with __typename only', '{ user(id: "user-1") { timeline { __typename } } }'],
];

describe('reading a restricted member of a union or interface without a credential', () => {
  it.each(NOTE_ATTEMPTS)('%s: no value, a coded error, the subgraph never asked for it', async (_name, query) => {
    users.resetCounts();
    const result = await post({ query });
    expect(result.status).toBe(200);
    expect(result.text).not.toMatch(/Call |10\.0\.|signin-/);
    expect(result.body.errors?.map((error) => error.extensions?.code)).toContain('UNAUTHORIZED_FIELD_OR_TYPE');
    const asked = fieldNamesIn(users.requests);
    expect(asked).not.toContain('body');
    expect(asked).not.toContain('ip');
    expect(asked).not.toContain('timeline');
  });
});
