import { ApolloClient, type DocumentNode, gql, HttpLink, InMemoryCache, NetworkStatus } from '@apollo/client';
import { Defer20220824Handler, GraphQL17Alpha9Handler } from '@apollo/client/incremental';
import { addReview, eventually, type Gate, MOUNTS, postGraphQL, startGate, subgraphUrlEnv } from '@fedgw/test-support';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';
import { hasParts, partsIn, streamedAnswer } from '../support/multipart-answer.js';

/**
 * @stream (ADR 060) as Apollo Client 4's own incremental handlers read it, on every mount:
 * Defer20220824Handler (`multipart/mixed;deferSpec=20220824`, items as `{items, path}`) and
 * GraphQL17Alpha9Handler (`multipart/mixed;incrementalSpec=v0.2`: pending, `{id, items}`,
 * completed). The final data is the operation's without @stream; the first items come first.
 */
const subgraphs = subgraphsForFile();
// In front of the reviews subgraph: held shut, a batch whose items need reviews cannot complete.
let reviews: Gate;
beforeAll(async () => {
  reviews = await startGate(subgraphs().reviews.url);
});
afterAll(() => reviews?.server.close());

const LEGACY = 'multipart/mixed;deferSpec=20220824, application/json';
const V02 = 'multipart/mixed;incrementalSpec=v0.2, application/json';

const STREAMED = `query Streamed {
  topProducts(first: 6) @stream(initialCount: 1, label: "products") { upc name reviews { comment } }
}`;
/** The same operation without its incremental directives: what the streamed one must add up to. */
const plain = (query: string) => query.replace(/ @(stream|defer)(\([^)]*\))?/g, '');

type Handler = 'Defer20220824Handler' | 'GraphQL17Alpha9Handler';

/**
 * Every emission of a watched query until it is complete, through Apollo Client's own handler.
 * The reviews gate is shut first: `first` is called once the request's fetches are held (it
 * releases what the first part needs); the rest is released at the first emission, so the client
 * provably sees the first part before the others exist.
 */
async function emissions(
  url: string,
  handler: Handler,
  query: DocumentNode,
  options: { variables?: Record<string, unknown>; first?: () => Promise<void> } = {},
) {
  const client = new ApolloClient({
    link: new HttpLink({ uri: url }),
    cache: new InMemoryCache(),
    incrementalHandler: handler === 'Defer20220824Handler' ? new Defer20220824Handler() : new GraphQL17Alpha9Handler(),
  });
  const seen: Record<string, unknown>[] = [];
  reviews.close();
  try {
    await new Promise<void>((resolve, reject) => {
      const subscription = client.watchQuery({ query, variables: options.variables ?? {} }).subscribe({
        next: (result) => {
          if (result.error) reject(result.error);
          if (result.dataState === 'empty') return;
          if (result.data) seen.push(structuredClone(result.data) as Record<string, unknown>);
          reviews.release();
          // `complete` means every field selected is there, as it is with a list's first items: the end is `ready`.
          if (result.networkStatus === NetworkStatus.ready) {
            subscription.unsubscribe();
            resolve();
          }
        },
        error: reject,
      });
      options.first?.().catch(reject);
    });
  } finally {
    reviews.release();
    client.stop();
  }
  return seen;
}

/** For a streamed topProducts: once the four batches' reviews fetches are held, the first item's goes. */
const releaseFirstItem = async () => {
  await eventually(() => expect(reviews.holding()).toBe(4));
  expect(reviews.releaseMatching('"product-1"')).toBe(1);
};

/** The answer without @stream and @defer, as Apollo Client's cache gives it back (with `__typename`). */
async function plainData(url: string, query: DocumentNode, variables = {}) {
  const client = new ApolloClient({ link: new HttpLink({ uri: url }), cache: new InMemoryCache() });
  const { data } = await client.query({ query, variables });
  client.stop();
  return data;
}

describe.each(MOUNTS)('@stream on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_REVIEWS_URL: reviews.server.url,
    MAX_COST: '2000',
    MAX_DEPTH: '5',
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: 'stream-test-secret-long-enough-0123456789abcdef',
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
  }));

  for (const handler of ['Defer20220824Handler', 'GraphQL17Alpha9Handler'] as const) {
    it(`Apollo Client 4 (${handler}): the first item first, then the rest; the final data is the unstreamed answer`, async () => {
      const seen = await emissions(gateway().url, handler, gql(STREAMED), { first: releaseFirstItem });
      expect(seen.length).toBeGreaterThan(1);
      expect(seen[0]?.topProducts).toHaveLength(1);
      expect(seen.at(-1)).toEqual(await plainData(gateway().url, gql(plain(STREAMED))));
      expect(seen.at(-1)?.topProducts).toHaveLength(6);
    });

    it(`Apollo Client 4 (${handler}): @stream inside @defer, and @defer inside a streamed list`, async () => {
      for (const query of [
        '{ user(id: "user-2") { id ... @defer(label: "later") { reviews @stream(initialCount: 1) { rating } } } }',
        '{ topProducts(first: 4) @stream(initialCount: 1) { id ... @defer(label: "more") { reviews { rating } } } }',
      ]) {
        const seen = await emissions(gateway().url, handler, gql(query));
        expect(seen.length).toBeGreaterThan(1);
        expect(seen.at(-1)).toEqual(await plainData(gateway().url, gql(plain(query))));
      }
    });

    it(`Apollo Client 4 (${handler}): \`if\` from a variable turns streaming off and on`, async () => {
      const query = gql`
        query ($on: Boolean!) {
          topProducts(first: 3) @stream(initialCount: 0, if: $on) {
            id
            reviews {
              rating
            }
          }
        }
      `;
      // Off, the operation runs as without @stream: one reviews fetch, one answer.
      const off = await emissions(gateway().url, handler, query, {
        variables: { on: false },
        first: async () => {
          await eventually(() => expect(reviews.holding()).toBe(1));
          reviews.release();
        },
      });
      expect(off).toHaveLength(1);
      const on = await emissions(gateway().url, handler, query, { variables: { on: true } });
      expect(on.length).toBeGreaterThan(1);
      expect(on.at(-1)).toEqual(off[0]);
    });
  }

  it('raw HTTP, deferSpec=20220824: the initial items, then `{items, path: [list, first index], label}` in order', async () => {
    const answer = await streamedAnswer(gateway().url, { query: STREAMED }, LEGACY);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('multipart/mixed; boundary="-"; deferSpec=20220824');
    const [initial, ...rest] = await answer.all();
    expect(initial).toEqual({
      data: { topProducts: [{ upc: expect.any(String), name: expect.any(String), reviews: expect.any(Array) }] },
      hasNext: true,
    });
    expect(rest.at(-1)?.hasNext).toBe(false);
    const entries = rest.flatMap((part) => (part.incremental ?? []) as { items: unknown[]; path: unknown[] }[]);
    // Batches double: 1 item, 2, then the rest.
    expect(entries.map(({ path, items }) => [path, items.length])).toEqual([
      [['topProducts', 1], 1],
      [['topProducts', 2], 2],
      [['topProducts', 4], 2],
    ]);
    expect(entries.every((entry) => (entry as { label?: string }).label === 'products')).toBe(true);
    const whole = await postGraphQL(gateway().url, { query: plain(STREAMED) });
    const items = [
      ...((initial?.data as { topProducts?: unknown[] } | undefined)?.topProducts ?? []),
      ...entries.flatMap((e) => e.items),
    ];
    expect(items).toEqual((whole.body.data as { topProducts: unknown[] }).topProducts);
  });

  it('raw HTTP, incrementalSpec=v0.2: pending announced with the initial part, `{id, items}` later, then completed', async () => {
    const answer = await streamedAnswer(gateway().url, { query: STREAMED }, V02);
    expect(answer.contentType).toBe('multipart/mixed; boundary="-"; incrementalSpec=v0.2');
    const [initial, ...rest] = await answer.all();
    expect(initial).toMatchObject({ pending: [{ id: '0', path: ['topProducts'], label: 'products' }], hasNext: true });
    const incremental = rest.flatMap((part) => (part.incremental ?? []) as { id: string; items: unknown[] }[]);
    expect(incremental.map(({ id, items }) => [id, items.length])).toEqual([
      ['0', 1],
      ['0', 2],
      ['0', 2],
    ]);
    expect(rest.at(-1)).toMatchObject({ completed: [{ id: '0' }], hasNext: false });
  });

  it('streams: with the reviews fetches held, the initial part is out; each batch waits for its own fetch', async () => {
    reviews.close();
    try {
      const answer = await streamedAnswer(
        gateway().url,
        { query: '{ topProducts(first: 5) @stream { id reviews { rating } } }' },
        LEGACY,
      );
      const first = await answer.until(hasParts(1));
      expect(partsIn(first)).toEqual([{ data: { topProducts: [] }, hasNext: true }]);
      // One held reviews fetch per later batch (items 0, 1–2, 3–4); the initial part waited for none.
      await eventually(() => expect(reviews.holding()).toBe(3));
      reviews.release();
      const parts = partsIn(await answer.until((text) => text.endsWith('\r\n-----\r\n')));
      const items = parts.flatMap((part) =>
        ((part.incremental ?? []) as { items: unknown[] }[]).flatMap((e) => e.items),
      );
      expect(items).toHaveLength(5);
    } finally {
      reviews.release();
    }
  });

  it('an Accept that names only a multipart format is answered in it (no JSON needed)', async () => {
    for (const [accept, spec] of [
      ['multipart/mixed;deferSpec=20220824', 'deferSpec=20220824'],
      ['multipart/mixed;incrementalSpec=v0.2', 'incrementalSpec=v0.2'],
    ] as const) {
      const answer = await streamedAnswer(gateway().url, { query: STREAMED }, accept);
      expect(answer.status).toBe(200);
      expect(answer.contentType).toBe(`multipart/mixed; boundary="-"; ${spec}`);
      expect((await answer.all()).at(-1)?.hasNext).toBe(false);
    }
  });

  it('a client that reads no multipart format served here gets 406 NOT_ACCEPTABLE; nothing runs', async () => {
    for (const accept of ['application/json', 'multipart/mixed;incrementalSpec=v9, application/json']) {
      const refused = await postGraphQL(gateway().url, { query: STREAMED }, { accept });
      expect(refused.status).toBe(406);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('NOT_ACCEPTABLE');
    }
    // `if: false` streams nothing: a plain JSON answer.
    const off = await postGraphQL(gateway().url, { query: '{ topProducts(first: 2) @stream(if: false) { id } }' });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ topProducts: [{ id: 'product-1' }, { id: 'product-2' }] });
  });

  it("misuse is the client's error, refused before anything runs (graphql-js 17's rules)", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['{ product(id: "product-1") @stream { id } }', {}, 'GRAPHQL_VALIDATION_FAILED'],
      ['{ topProducts @stream(initialCount: -1) { id } }', {}, 'GRAPHQL_VALIDATION_FAILED'],
      ['query ($n: Int!) { topProducts @stream(initialCount: $n) { id } }', { n: -2 }, 'BAD_REQUEST'],
      [
        '{ a: topProducts @stream(label: "x") { id } b: topProducts @stream(label: "x") { id } }',
        {},
        'GRAPHQL_VALIDATION_FAILED',
      ],
      ['subscription { reviewAdded { author { reviews @stream { id } } } }', {}, 'GRAPHQL_VALIDATION_FAILED'],
    ];
    for (const [query, variables, code] of cases) {
      const refused = await postGraphQL(gateway().url, { query, variables }, { accept: LEGACY });
      expect({ query, status: refused.status, code: refused.body.errors?.[0]?.extensions?.code }).toEqual({
        query,
        status: 400,
        code,
      });
    }
  });

  it('authorization: every streamed item is patched as the unstreamed answer is; a refused field never leaks', async () => {
    const query = '{ topProducts(first: 3) @stream(initialCount: 1) { id reviews { author { address } } } }';
    const answer = await streamedAnswer(gateway().url, { query }, LEGACY);
    const text = await answer.until(() => false);
    expect(text).not.toContain('Main Street');
    const [initial, ...rest] = partsIn(text);
    const entries = rest.flatMap((part) => (part.incremental ?? []) as { items: unknown[] }[]);
    const items = [
      ...((initial?.data as { topProducts?: unknown[] } | undefined)?.topProducts ?? []),
      ...entries.flatMap((entry) => entry.items),
    ];
    const whole = await postGraphQL(gateway().url, { query: plain(query) });
    expect(items).toEqual((whole.body.data as { topProducts: unknown[] }).topProducts);
    // As for @defer: the refusals are reported in the first part (their paths come from the operation).
    expect(JSON.stringify(initial?.errors)).toContain('UNAUTHORIZED_FIELD_OR_TYPE');
  });

  it('operation limits apply to the whole operation: too deep or too costly streamed is refused as unstreamed', async () => {
    const deep = '{ topProducts @stream { reviews { author { reviews { product { name } } } } } }';
    for (const query of [deep, plain(deep)]) {
      const refused = await postGraphQL(gateway().url, { query }, { accept: LEGACY });
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('MAX_DEPTH_LIMIT');
    }
    const costly = '{ topProducts(first: 100) @stream(initialCount: 1) { reviews { author { name } } } }';
    for (const query of [costly, plain(costly)]) {
      const refused = await postGraphQL(gateway().url, { query }, { accept: LEGACY });
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    }
  });
});

describe.each(MOUNTS)('@stream and the response budget on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()), MAX_RESPONSE_BYTES: '3000' }));

  it('MAX_RESPONSE_BYTES is one budget for the whole operation: streamed, as unstreamed, it ends in RESPONSE_TOO_LARGE', async () => {
    const query = '{ topProducts(first: 30) @stream(initialCount: 1) { id reviews { rating comment } } }';
    const whole = await postGraphQL(gateway().url, { query: plain(query) });
    expect(whole.body.errors?.[0]?.extensions?.code).toBe('RESPONSE_TOO_LARGE');
    const answer = await streamedAnswer(gateway().url, { query }, LEGACY);
    const text = await answer.until(() => false);
    // The later batches fetch while the initial part is built: whichever spends the budget ends
    // the answer, the initial part itself (a JSON error) or a last part.
    const last = answer.contentType?.startsWith('multipart/mixed') ? partsIn(text).at(-1) : JSON.parse(text);
    expect(JSON.stringify(last)).toContain('"code":"RESPONSE_TOO_LARGE"');
    expect(last?.hasNext ?? false).toBe(false);
  });
});

// The planner's side is the core's, the same on every mount: one mount shows it.
describe.each(MOUNTS.slice(0, 1))('@stream(if: false) in a subscription on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()) }));

  it('is valid (streaming off), and the events arrive: the planner never sees the directive', async () => {
    const client = createClient({ url: gateway().url.replace(/^http/, 'ws'), webSocketImpl: WebSocket });
    const events: unknown[] = [];
    const query =
      'subscription { reviewAdded(productId: "product-9") { rating author { reviews @stream(if: false) { id } } } }';
    const stop = client.subscribe(
      { query },
      { next: (event) => events.push(event), error: () => {}, complete: () => {} },
    );
    try {
      // poll: a review added before the subscription reached the subgraph is not an event; add until one is.
      await eventually(async () => {
        await addReview(subgraphs().reviews.url, {
          productId: 'product-9',
          rating: 4,
          comment: 'streamed',
          author: 'user-3',
        });
        expect(events.length).toBeGreaterThan(0);
      });
      expect(events[0]).toEqual({
        data: { reviewAdded: { rating: 4, author: { reviews: expect.arrayContaining([{ id: expect.any(String) }]) } } },
      });
    } finally {
      stop();
      await client.dispose();
    }
  });
});
