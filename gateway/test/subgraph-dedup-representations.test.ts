import { json, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { dedupeRepresentations } from '../src/dedup/representations.js';
import { SubgraphDataSource } from '../src/subgraph-fetch/data-source.js';
import { incomingOperation } from './helpers/operation.js';

/**
 * Representation deduplication in the data source, against a real HTTP server: what the
 * subgraph receives, and how its answer is spread back over the original positions.
 * (subgraph-dedup-answers.test.ts checks whole answers on the real subgraphs.)
 */
const ENTITIES_QUERY =
  'query Q__users__1($representations:[_Any!]!){_entities(representations:$representations){...on User{name email}}}';
const user = (id: string) => ({ __typename: 'User', id });
/** Positions 0, 2 and 3 are the same user. */
const REPRESENTATIONS = [user('1'), user('2'), user('1'), user('1')];

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function setup(answer: unknown, status = 200, deduplicateRepresentations?: boolean) {
  const server: TestHttpServer = await startTestHttpServer(json(answer, status));
  const source = new SubgraphDataSource({
    name: 'users',
    url: server.url,
    timeoutMs: 5_000,
    connections: 2,
    keepAliveMs: 4_000,
    // The subgraph's errors as it wrote them: this file checks where they land, not SUBGRAPH_ERRORS.
    errors: 'all',
    ...(deduplicateRepresentations !== undefined && { deduplicateRepresentations }),
  });
  closers.push(
    () => server.close(),
    () => source.close(),
  );
  const sentRepresentations = () =>
    server.requests.map(
      (request) => (JSON.parse(request.body) as { variables: { representations: unknown } }).variables.representations,
    );
  return { source, server, sentRepresentations };
}

const entitiesFetch = (representations: unknown[], query = ENTITIES_QUERY) =>
  incomingOperation({ query, variables: { representations } });

describe('representation deduplication', () => {
  it('sends each distinct representation once and gives every position its entity, in its own object', async () => {
    const { source, sentRepresentations } = await setup({
      data: {
        _entities: [
          { name: 'Ann', email: 'ann@x', tags: { a: 1 } },
          { name: 'Bob', email: 'bob@x', tags: { a: 2 } },
        ],
      },
    });

    const response = await source.process(entitiesFetch(REPRESENTATIONS));

    expect(sentRepresentations()).toEqual([[user('1'), user('2')]]);
    const entities = (response.data as { _entities: Record<string, unknown>[] })._entities;
    const ann = { name: 'Ann', email: 'ann@x', tags: { a: 1 } };
    expect(entities).toEqual([ann, { name: 'Bob', email: 'bob@x', tags: { a: 2 } }, ann, ann]);
    // @apollo/gateway merges later fetches into these objects in place: none may be shared.
    expect(entities[2]).not.toBe(entities[0]);
    expect(entities[3]).not.toBe(entities[2]);
    expect(entities[2]?.tags).not.toBe(entities[0]?.tags);
  });

  it('sends every representation as given when turned off (SUBGRAPH_DEDUPLICATE_REPRESENTATIONS=false)', async () => {
    const entities = REPRESENTATIONS.map((_, i) => ({ name: `n${i}`, email: `e${i}` }));
    const { source, sentRepresentations } = await setup({ data: { _entities: entities } }, 200, false);
    const response = await source.process(entitiesFetch(REPRESENTATIONS));
    expect(sentRepresentations()).toEqual([REPRESENTATIONS]);
    expect(response.data).toEqual({ _entities: entities });
  });

  it('puts a subgraph error about a deduplicated entity at each of its original positions', async () => {
    const { source } = await setup({
      data: {
        _entities: [
          { name: 'Ann', email: null },
          { name: 'Bob', email: 'bob@x' },
        ],
      },
      errors: [
        { message: 'email hidden', path: ['_entities', 0, 'email'], extensions: { code: 'FORBIDDEN' } },
        { message: 'unrelated' },
      ],
    });

    const response = await source.process(entitiesFetch(REPRESENTATIONS));

    expect(response.errors).toEqual([
      { message: 'email hidden', path: ['_entities', 0, 'email'], extensions: { code: 'FORBIDDEN' } },
      { message: 'email hidden', path: ['_entities', 2, 'email'], extensions: { code: 'FORBIDDEN' } },
      { message: 'email hidden', path: ['_entities', 3, 'email'], extensions: { code: 'FORBIDDEN' } },
      { message: 'unrelated' },
    ]);
  });

  it('reports a failed fetch on every original position', async () => {
    const { source } = await setup('<html>down</html>', 500);

    const response = await source.process(entitiesFetch(REPRESENTATIONS));

    const paths = response.errors?.map((error) => error.path);
    expect(paths).toEqual(
      [0, 1, 2, 3].flatMap((i) => [
        ['_entities', i, 'name'],
        ['_entities', i, 'email'],
      ]),
    );
    expect(response.errors?.every((error) => error.extensions?.code === 'SUBREQUEST_HTTP_ERROR')).toBe(true);
  });

  it('leaves fetches without repeats, and variables named representations outside _entities, untouched', async () => {
    const { source, sentRepresentations } = await setup({ data: { _entities: [{ name: 'Ann' }, { name: 'Bob' }] } });
    await source.process(entitiesFetch([user('1'), user('2')]));
    const rootQuery = 'query R($representations: [String]) { echo(values: $representations) }';
    await source.process(entitiesFetch(['a', 'a'], rootQuery));

    expect(sentRepresentations()).toEqual([
      [user('1'), user('2')],
      ['a', 'a'],
    ]);
  });

  it('passes on an answer with the wrong number of entities for @apollo/gateway to report', async () => {
    const { source } = await setup({ data: { _entities: [{ name: 'Ann' }] } });

    const response = await source.process(entitiesFetch(REPRESENTATIONS));

    expect(response.data).toEqual({ _entities: [{ name: 'Ann' }] });
  });
});

describe('which representations are one (dedupeRepresentations)', () => {
  const query = 'query($representations:[_Any!]!){_entities(representations:$representations){...on User{name}}}';
  const uniqueOf = (representations: unknown[]) =>
    dedupeRepresentations(query, { representations })?.variables.representations ?? representations;

  it('merges equal JSON texts only: the key order, the value types and any further field tell them apart', () => {
    const representations = [
      { __typename: 'User', id: '1' },
      { id: '1', __typename: 'User' },
      { __typename: 'User', id: 1 },
      { __typename: 'User', id: '1', extra: true },
      { __typename: 'Admin', id: '1' },
      { __typename: 'User', id: '1' },
      { id: '1', __typename: 'User' },
      { __typename: 'User', id: 1 },
    ];
    expect(uniqueOf(representations)).toEqual(representations.slice(0, 5));
  });

  it('keys a representation with other fields by its whole JSON text', () => {
    const representations = [
      { __typename: 'Product', upc: 'a', sku: { id: 'x' } },
      { __typename: 'Product', upc: 'a', sku: { id: 'y' } },
      { __typename: 'Product', upc: 'a', sku: { id: 'x' } },
    ];
    expect(uniqueOf(representations)).toEqual(representations.slice(0, 2));
  });
});
