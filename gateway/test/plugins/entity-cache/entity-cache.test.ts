import { available, eventually, startRedis, type TestRedis } from '@fedgw/test-support';
import { context as otelContext, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/parse.js';
import { createContext } from '../../../src/context.js';
import type { FetchedSubgraphResult, SubgraphRequest, SubgraphResult } from '../../../src/contract/index.js';
import { ENTITY_CACHE_DEFAULTS, type EntityStore, entityCache } from '../../../src/plugins/entity-cache/index.js';
import { RedisEntityStore } from '../../../src/plugins/entity-cache/redis-store.js';
import { issueFields, optionsError } from '../helpers/options-error.js';

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

/** A plugin on the test supergraph, with `options`. */
function started(options: Parameters<typeof entityCache>[0] = {}) {
  const plugin = entityCache(options);
  plugin.onSupergraph?.({ sdl: SDL('v1'), schema: undefined as never, subgraphs: ['products'] });
  return plugin;
}

/** One `_entities` fetch of `ids` by `subject` (anonymous when undefined), sending `headers` to the subgraph. */
function ask(
  plugin: ReturnType<typeof entityCache>,
  ids: string[],
  fetch: (variables?: Readonly<Record<string, unknown>>) => Promise<FetchedSubgraphResult>,
  { subject, headers = {} }: { subject?: string; headers?: Record<string, string> } = {},
): Promise<SubgraphResult> {
  const asked = request(ids, subject === undefined ? {} : { subject });
  return (plugin.aroundSubgraphFetch as NonNullable<typeof plugin.aroundSubgraphFetch>)(
    { ...asked, headers: { ...asked.headers, ...headers } },
    (variables) => fetch(variables ?? asked.variables),
  );
}

describe('entity cache: trace propagation headers are never in the key', () => {
  afterAll(() => propagation.disable());

  it('whatever propagator wrote them, with new values on every request, the second fetch is a hit', async () => {
    const plugin = started();
    const { asked, fetch } = subgraph();
    let n = 0;
    const traced = () => {
      n++;
      return {
        traceparent: `00-${String(n).padStart(32, '0')}-${String(n).padStart(16, '0')}-01`,
        tracestate: `vendor=${n}`,
        baggage: `request=${n}`,
        b3: `${n}-${n}-1`,
        'x-b3-traceid': `${n}`,
        'x-b3-spanid': `${n}`,
        'x-b3-parentspanid': `${n}`,
        'x-b3-sampled': '1',
        'x-b3-flags': '0',
        'uber-trace-id': `${n}:${n}:0:1`,
        'uberctx-tenant-hint': `${n}`,
        'jaeger-debug-id': `${n}`,
        'ot-tracer-traceid': `${n}`,
        'sentry-trace': `${n}-${n}-1`,
        'x-amzn-trace-id': `Root=1-${n}`,
        'x-cloud-trace-context': `${n}/${n};o=1`,
        'grpc-trace-bin': `${n}`,
        'x-datadog-trace-id': `${n}`,
      };
    };
    await ask(plugin, ['1'], fetch, { headers: traced() });
    await ask(plugin, ['1'], fetch, { headers: traced() });
    // Any other header still tells answers apart.
    await ask(plugin, ['1'], fetch, { headers: { ...traced(), 'x-tenant': 'a' } });
    expect(asked).toEqual([['1'], ['1']]);
  });

  it('nor any header the registered propagator says it injects (OTEL_PROPAGATORS names one this list does not know)', async () => {
    propagation.disable(); // the SDK registered above set its own
    propagation.setGlobalPropagator({
      inject: () => undefined,
      extract: (context) => context,
      fields: () => ['X-Acme-Trace'],
    });
    const plugin = started();
    const { asked, fetch } = subgraph();
    await ask(plugin, ['1'], fetch, { headers: { 'x-acme-trace': 'one' } });
    await ask(plugin, ['1'], fetch, { headers: { 'x-acme-trace': 'two' } });
    expect(asked).toEqual([['1']]);
  });
});

/** One client floods, another reads and writes; then a new window. Store-independent: run on each store. */
async function writeBudgetScenario(store?: EntityStore): Promise<void> {
  let now = 0;
  const events: string[] = [];
  const plugin = started({
    ...(store && { store }),
    clientWriteBytes: 1024,
    clientWriteWindowMs: 1000,
    clientKey: (context) => context.identity.subject ?? 'anonymous',
    now: () => now,
    plugins: () => [{ name: 'spy', onEvent: (event) => void events.push((event as { outcome: string }).outcome) }],
  });
  const { asked, fetch } = subgraph();
  await ask(plugin, ['hot'], fetch);
  // Each entry is ~110 bytes (key and value): the flooder's first nine fit in 1 KiB, no more.
  const flood = Array.from({ length: 30 }, (_, i) => `flood-${i}`);
  const first = await ask(plugin, flood, fetch, { subject: 'flooder' });
  expect((first.data as { _entities: unknown[] })._entities).toHaveLength(30);
  await ask(plugin, flood, fetch, { subject: 'flooder' });
  const kept = 30 - (asked[2]?.length ?? 0);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(12);
  expect(events).toContain('throttled');

  // The other client still hits, and can still write.
  await ask(plugin, ['hot'], fetch);
  await ask(plugin, ['other'], fetch);
  await ask(plugin, ['other'], fetch);
  expect(asked.slice(3)).toEqual([['other']]);

  // The next window: the flooder may write again.
  now += 1000;
  const before = asked.length;
  await ask(plugin, ['late'], fetch, { subject: 'flooder' });
  await ask(plugin, ['late'], fetch, { subject: 'flooder' });
  expect(asked.slice(before)).toEqual([['late']]);
}

describe("entity cache: one client's writes are bounded (clientWriteBytes per clientWriteWindowMs)", () => {
  it("past its budget a client's answers are served, not kept; other clients' entries stay; a new window starts it again", () =>
    writeBudgetScenario());
});

describe('entity cache: a partial hit whose fetch for the others fails', () => {
  const failing = (result: SubgraphResult, fromSubgraph: boolean) => async (): Promise<FetchedSubgraphResult> => ({
    result,
    headers: {},
    fromSubgraph,
  });

  it('keeps the cached entities and puts the failure only at the entities it asked for (a failed fetch: errors per field)', async () => {
    const plugin = started();
    await ask(plugin, ['1', '3'], subgraph().fetch);
    const failed = failing(
      {
        errors: [
          { message: 'Subgraph "products" timed out.', path: ['_entities', 0, 'name'] },
          { message: 'Subgraph "products" timed out.', path: ['_entities', 1, 'name'] },
        ],
      },
      false,
    );
    const result = await ask(plugin, ['1', '2', '3', '4'], failed);

    expect(result.data).toEqual({ _entities: [{ name: 'name-1' }, null, { name: 'name-3' }, null] });
    expect(result.errors?.map((error) => error.path)).toEqual([
      ['_entities', 1, 'name'],
      ['_entities', 3, 'name'],
    ]);
  });

  it('an error that names no entity (the subgraph failed the whole fetch) goes to each entity it asked for', async () => {
    const plugin = started();
    await ask(plugin, ['1'], subgraph().fetch);
    const failed = failing({ data: null, errors: [{ message: 'database down' }] } as SubgraphResult, true);
    const result = await ask(plugin, ['2', '1', '3'], failed);

    expect(result.data).toEqual({ _entities: [null, { name: 'name-1' }, null] });
    expect(result.errors).toEqual([
      { message: 'database down', path: ['_entities', 0] },
      { message: 'database down', path: ['_entities', 2] },
    ]);
  });
});

/** A subgraph answering `private` to alice only, `public` to everyone else, recording what it was asked. */
function personalFor(user: string) {
  const asked: string[][] = [];
  let caller: string | undefined;
  const fetch = async (variables?: Readonly<Record<string, unknown>>): Promise<FetchedSubgraphResult> => {
    const representations = (variables?.representations ?? []) as { id: string }[];
    asked.push(representations.map(({ id }) => id));
    return {
      result: { data: { _entities: representations.map(({ id }) => ({ name: `name-${id}` })) } },
      headers: { 'cache-control': caller === user ? 'private, max-age=60' : 'public, max-age=60' },
      fromSubgraph: true,
    };
  };
  const as = (subject: string | undefined) => {
    caller = subject;
    return subject === undefined ? {} : { subject };
  };
  return { asked, fetch, as };
}

/** Alice's answers private, everyone else's public, for one selection. Run on each store. */
async function perAnswerScenario(store?: EntityStore): Promise<void> {
  const plugin = started(store && { store });
  const { asked, fetch, as } = personalFor('alice');
  await ask(plugin, ['2'], fetch, as('alice'));
  // Anonymous callers still hit public answers of the same selection…
  await ask(plugin, ['3'], fetch, as(undefined));
  await ask(plugin, ['3'], fetch, as(undefined));
  // …and so do signed-in ones, whose public answers are kept where they look.
  await ask(plugin, ['4'], fetch, as('bob'));
  await ask(plugin, ['4'], fetch, as('bob'));
  // Alice's private answer is hers: kept for her, never served to bob.
  await ask(plugin, ['2'], fetch, as('alice'));
  await ask(plugin, ['2'], fetch, as('bob'));
  expect(asked).toEqual([['2'], ['3'], ['4'], ['2']]);
}

describe('entity cache: private or public is decided per answer', () => {
  it('one private answer does not make the selection private for other entities or callers', () => perAnswerScenario());
});

const REDIS = available('redis-server', import.meta.url);

describe.skipIf(!REDIS)('entity cache on the Redis store (a real redis-server)', () => {
  let redis: TestRedis;
  const stores: RedisEntityStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await redis.stop();
  });
  /** A store of its own (key prefix), once connected: writes before that are dropped. */
  const connected = async () => {
    const store = new RedisEntityStore({ url: redis.url, keyPrefix: `t${stores.length}:` });
    stores.push(store);
    await eventually(async () => expect(await store.get(['probe'])).toEqual([undefined]));
    return store;
  };

  it('private or public is decided per answer: both keys in one MGET', async () =>
    perAnswerScenario(await connected()));
  it("one client's writes are bounded", async () => writeBudgetScenario(await connected()));
});

describe('entity cache options', () => {
  it('refuses unknown keys and values out of the settings’ bounds, naming each', () => {
    const error = optionsError('entity-cache', () =>
      entityCache({ maxByte: 1024, maxTtlMs: 500, typeTtlMs: { Product: -1 }, clientWriteBytes: 'lots' } as never),
    );
    expect(issueFields(error)).toEqual(['clientWriteBytes', 'maxByte', 'maxTtlMs', 'typeTtlMs']);
    expect(error.message).toContain('maxByte: unknown option (known: store, maxBytes,');
  });

  it('has the settings’ defaults (ENTITY_CACHE_*): one place for each', () => {
    const config = parseConfig({ ENTITY_CACHE: 'memory' }, { cwd: '/srv/gateway' }).entityCache;
    const { store: _store, redisUrl: _redis, ...settings } = config;
    for (const [name, value] of Object.entries(settings)) {
      expect(value, name).toEqual((ENTITY_CACHE_DEFAULTS as Record<string, unknown>)[name]);
    }
    expect(Object.keys(settings).length).toBeGreaterThan(6);
  });
});
