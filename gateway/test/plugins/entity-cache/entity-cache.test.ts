import { context as otelContext, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/context.js';
import type { FetchedSubgraphResult, SubgraphRequest, SubgraphResult } from '../../../src/contract/index.js';
import { entityCache } from '../../../src/plugins/entity-cache/index.js';

/**
 * The plugin's fetch wrapper against a subgraph made of a function: what it asks, how it
 * merges, what it keeps across a reload and for whom. Over HTTP: tests/contract and
 * tests/adversarial entity-cache tests.
 */
const SDL = (version: string) => `
  schema @link(url: "https://specs.apollo.dev/link/v1.0") @link(url: "https://specs.apollo.dev/join/v0.3", for: EXECUTION) { query: Query }
  directive @join__type(graph: join__Graph!, key: join__FieldSet) repeatable on OBJECT
  directive @join__graph(name: String!, url: String!) on ENUM_VALUE
  scalar join__FieldSet
  enum join__Graph { PRODUCTS @join__graph(name: "products", url: "http://products") }
  type Query { version: String }
  type Product @join__type(graph: PRODUCTS, key: "id") { id: ID! name: String }
  # ${version}
`;
const QUERY = 'query($representations:[_Any!]!){_entities(representations:$representations){...on Product{name}}}';
const product = (id: string) => ({ __typename: 'Product', id });

/** A subgraph answering each representation with `name-<id>` (or an error for id `bad`), recording what it was asked. */
function subgraph(cacheControl = 'public, max-age=60', headers: Record<string, string> = {}) {
  const asked: string[][] = [];
  const fetch = async (variables?: Readonly<Record<string, unknown>>): Promise<FetchedSubgraphResult> => {
    const representations = (variables?.representations ?? []) as { id: string }[];
    asked.push(representations.map(({ id }) => id));
    const errors = representations.flatMap(({ id }, index) =>
      id === 'bad' ? [{ message: 'no such product', path: ['_entities', index] }] : [],
    );
    const data = { _entities: representations.map(({ id }) => (id === 'bad' ? null : { name: `name-${id}` })) };
    return {
      result: { data, ...(errors.length > 0 && { errors }) },
      headers: { 'cache-control': cacheControl, ...headers },
      fromSubgraph: true,
    };
  };
  return { asked, fetch };
}

function request(ids: string[], identity: { subject?: string } = {}): SubgraphRequest {
  const scope = {
    requestId: 'r',
    method: 'POST',
    url: '/graphql',
    headers: {},
    ip: '127.0.0.1',
    startedAt: process.hrtime.bigint(),
    appendResponseHeader: () => {},
  };
  return {
    subgraph: 'products',
    headers: { 'x-request-id': `r-${Math.random()}` },
    context: createContext(scope, identity),
    query: QUERY,
    variables: { representations: ids.map(product) },
  };
}

async function through(
  plugin: ReturnType<typeof entityCache>,
  ids: string[],
  fetch: (variables?: Readonly<Record<string, unknown>>) => Promise<FetchedSubgraphResult>,
  identity?: { subject?: string },
): Promise<SubgraphResult> {
  return (plugin.aroundSubgraphFetch as NonNullable<typeof plugin.aroundSubgraphFetch>)(
    request(ids, identity),
    (variables) => fetch(variables ?? request(ids).variables),
  );
}

describe('entity cache: one fetch through it', () => {
  // The real SDK, registered as a deployment's tracing does (it sets the async context manager).
  const exporter = new InMemorySpanExporter();
  beforeAll(() => new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register());
  afterAll(() => {
    trace.disable();
    otelContext.disable();
  });

  it('asks only for the missing entities, merges them in order with errors moved to their places, and marks the span', async () => {
    const plugin = entityCache();
    plugin.onSupergraph?.({ sdl: SDL('v1'), schema: undefined as never, subgraphs: ['products'] });
    const { asked, fetch } = subgraph();
    await through(plugin, ['1', '3'], fetch);

    const tracer = trace.getTracer('test');
    const result = await tracer.startActiveSpan('gateway.fetch', async (span) => {
      const answer = await through(plugin, ['1', '2', 'bad', '3'], fetch);
      span.end();
      return answer;
    });

    expect(asked).toEqual([
      ['1', '3'],
      ['2', 'bad'],
    ]);
    expect(result.data).toEqual({ _entities: [{ name: 'name-1' }, { name: 'name-2' }, null, { name: 'name-3' }] });
    expect(result.errors).toEqual([{ message: 'no such product', path: ['_entities', 2] }]);
    expect(exporter.getFinishedSpans()[0]?.attributes.entity_cache).toBe('partial');
  });

  it('a new supergraph is a new key space: nothing kept under the previous one is served', async () => {
    const plugin = entityCache();
    plugin.onSupergraph?.({ sdl: SDL('v1'), schema: undefined as never, subgraphs: ['products'] });
    const { asked, fetch } = subgraph();
    await through(plugin, ['1'], fetch);
    await through(plugin, ['1'], fetch);
    plugin.onSupergraph?.({ sdl: SDL('v2'), schema: undefined as never, subgraphs: ['products'] });
    await through(plugin, ['1'], fetch);

    expect(asked).toEqual([['1'], ['1']]);
  });

  it('a private answer is kept for its identity only, and never for an anonymous caller; no-store is never kept', async () => {
    const plugin = entityCache();
    plugin.onSupergraph?.({ sdl: SDL('v1'), schema: undefined as never, subgraphs: ['products'] });
    const { asked, fetch } = subgraph('private, max-age=60');
    await through(plugin, ['1'], fetch, { subject: 'alice' });
    await through(plugin, ['1'], fetch, { subject: 'alice' });
    await through(plugin, ['1'], fetch, { subject: 'bob' });
    await through(plugin, ['1'], fetch);
    await through(plugin, ['1'], fetch);
    expect(asked).toEqual([['1'], ['1'], ['1'], ['1']]);

    const noStore = subgraph('no-store');
    await through(plugin, ['7'], noStore.fetch);
    await through(plugin, ['7'], noStore.fetch);
    expect(noStore.asked).toEqual([['7'], ['7']]);
  });

  it('invalidates one entity by its @key values, whatever else its representation carried', async () => {
    const plugin = entityCache();
    plugin.onSupergraph?.({ sdl: SDL('v1'), schema: undefined as never, subgraphs: ['products'] });
    const { asked, fetch } = subgraph();
    await through(plugin, ['1', '2'], fetch);

    expect(await plugin.invalidate({ subgraph: 'products', type: 'Product', key: { id: '2' } })).toBe(1);
    await through(plugin, ['1', '2'], fetch);
    expect(asked).toEqual([['1', '2'], ['2']]);
  });

  it("two client operations asking the same share entries: the planner's operation name is not part of the key", async () => {
    const plugin = entityCache();
    plugin.onSupergraph?.({ sdl: SDL('v1'), schema: undefined as never, subgraphs: ['products'] });
    const { asked, fetch } = subgraph();
    const named = (name: string) => ({
      ...request(['1']),
      query: QUERY.replace('query(', `query ${name}__products__0(`),
    });
    const around = plugin.aroundSubgraphFetch as NonNullable<typeof plugin.aroundSubgraphFetch>;
    await around(named('ProductPage'), () => fetch(request(['1']).variables));
    const again = await around(named('Other'), () => fetch(request(['1']).variables));
    expect(asked).toEqual([['1']]);
    expect(again.data).toEqual({ _entities: [{ name: 'name-1' }] });
  });

  describe('identity headers (the JWT claim header x-user-id)', () => {
    const signedIn = (user: string | undefined) => ({
      ...request(['1'], user === undefined ? {} : { subject: user }),
      headers: { 'x-request-id': 'r', ...(user !== undefined && { 'x-user-id': user }) },
    });
    const ask = async (
      plugin: ReturnType<typeof entityCache>,
      user: string | undefined,
      fetch: ReturnType<typeof subgraph>['fetch'],
    ) =>
      (plugin.aroundSubgraphFetch as NonNullable<typeof plugin.aroundSubgraphFetch>)(signedIn(user), () =>
        fetch(request(['1']).variables),
      );
    const started = (sharedPublicSubgraphs?: string[]) => {
      const plugin = entityCache({
        identityHeaders: ['X-User-Id'],
        ...(sharedPublicSubgraphs && { sharedPublicSubgraphs }),
      });
      plugin.onSupergraph?.({ sdl: SDL('v1'), schema: undefined as never, subgraphs: ['products'] });
      return plugin;
    };

    it('by default their values are in every key: a "public" answer is not shared across users', async () => {
      const plugin = started();
      const { asked, fetch } = subgraph();
      await ask(plugin, 'alice', fetch);
      await ask(plugin, 'bob', fetch);
      await ask(plugin, 'alice', fetch);
      expect(asked).toEqual([['1'], ['1']]);
    });

    it("a trusted subgraph's public answer is shared by signed-in users, never with anonymous callers", async () => {
      const plugin = started(['products']);
      const { asked, fetch } = subgraph();
      await ask(plugin, 'alice', fetch);
      await ask(plugin, 'bob', fetch);
      await ask(plugin, undefined, fetch);
      await ask(plugin, undefined, fetch);
      expect(asked).toEqual([['1'], ['1']]);
    });

    it('unless the answer says Vary on one, or is private: then each user has their own', async () => {
      const plugin = started(['products']);
      const varying = subgraph('public, max-age=60', { vary: 'Accept, X-User-Id' });
      await ask(plugin, 'alice', varying.fetch);
      await ask(plugin, 'bob', varying.fetch);
      await ask(plugin, 'bob', varying.fetch);
      expect(varying.asked).toEqual([['1'], ['1']]);

      const personal = subgraph('private, max-age=60');
      const other = started(['products']);
      await ask(other, 'alice', personal.fetch);
      await ask(other, 'bob', personal.fetch);
      await ask(other, 'alice', personal.fetch);
      expect(personal.asked).toEqual([['1'], ['1']]);
    });
  });
});
