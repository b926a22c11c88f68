import { ApolloClient, gql, HttpLink, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { eventually, type Gate, MOUNTS, postGraphQL, startGate, subgraphUrlEnv } from '@fedgw/test-support';
import { createClient } from 'graphql-ws';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * @defer as Apollo Client 4's Defer20220824Handler and Apollo Router speak it, on every mount:
 * `Accept: multipart/mixed;deferSpec=20220824` answers a multipart body (boundary `-`), the
 * non-deferred data first, then each deferred block at its path with its label and errors; a
 * client that cannot read multipart gets Apollo Router's 406. Limits and authorization apply to
 * the whole operation, deferred fragments included.
 */
const subgraphs = subgraphsForFile();
// In front of the reviews subgraph: held shut, a deferred block that needs it cannot complete.
let reviews: Gate;
beforeAll(async () => {
  reviews = await startGate(subgraphs().reviews.url);
});
afterAll(() => reviews?.server.close());
const SECRET = 'defer-test-secret-long-enough-0123456789abcdef';
const DEFER_ACCEPT = 'multipart/mixed;deferSpec=20220824, application/json';

const DEFERRED = `query Deferred {
  user(id: "user-2") {
    id
    name
    ... @defer(label: "orders") { orders { id product { id name } } }
    ... @defer { reviews { rating } }
  }
  topProducts(first: 2) { id ... @defer(label: "productReviews") { reviews { rating } } }
}`;
/** The same operation without @defer: what the deferred one must add up to. */
const PLAIN = DEFERRED.replace(/ @defer(\(label: "[A-Za-z]+"\))?/g, '');

interface Part {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  incremental?: {
    data: Record<string, unknown> | null;
    path: (string | number)[];
    label?: string;
    errors?: Part['errors'];
  }[];
  hasNext: boolean;
}

/** The raw multipart answer, split on the boundary Apollo Router and Apollo Server write (`---`, closed by `-----`). */
async function deferredParts(url: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: DEFER_ACCEPT, ...headers },
    body: JSON.stringify({ query }),
  });
  const text = await response.text();
  const segments = text.split('\r\n---');
  const parts = segments.slice(1, -1).map((segment) => {
    const body = segment.slice(segment.indexOf('\r\n\r\n') + 4);
    return JSON.parse(body) as Part;
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text, parts };
}

/** Deep-merges each incremental entry at its path, as a client does. */
function assemble(parts: Part[]): Record<string, unknown> {
  const [first, ...rest] = parts;
  const data = structuredClone(first?.data ?? {}) as Record<string, unknown>;
  for (const part of rest) {
    for (const entry of part.incremental ?? []) {
      let target: Record<string, unknown> = data;
      for (const step of entry.path) target = target[step as string] as Record<string, unknown>;
      Object.assign(target, entry.data);
    }
  }
  return data;
}

async function bearer(): Promise<Record<string, string>> {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-3')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  return { authorization: `Bearer ${token}` };
}

interface UserData {
  user: { id: string; name: string; orders?: { id: string; product: { id: string; name: string } }[] } | null;
}
const USER_WITH_DEFERRED_ORDERS: TypedDocumentNode<UserData> = gql`
  query UserOrders {
    user(id: "user-2") {
      id
      name
      ... @defer(label: "orders") {
        orders {
          id
          product {
            id
            name
          }
        }
      }
    }
  }
`;

/** Reads a streamed answer as it arrives: `until(text)` resolves once the body so far passes `text`. */
async function streamed(url: string, query: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: DEFER_ACCEPT },
    body: JSON.stringify({ query }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async until(done: (text: string) => boolean): Promise<string> {
      while (!done(text)) {
        const { value, done: ended } = await reader.read();
        if (ended) return text;
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
  };
}

const partsIn = (text: string): Part[] =>
  text
    .split('\r\n---')
    .slice(1)
    .filter((segment) => segment.includes('\r\n\r\n'))
    .map((segment) => JSON.parse(segment.slice(segment.indexOf('\r\n\r\n') + 4)) as Part);

describe.each(MOUNTS)('@defer on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_REVIEWS_URL: reviews.server.url,
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    MAX_COST: '500',
    MAX_DEPTH: '5',
    INBOUND_DEDUPLICATE: 'true',
    GATEWAY_LOG_LEVEL: 'debug',
  }));

  it('Apollo Client 4 (Defer20220824Handler) receives the initial data, then the deferred data', async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: gateway().url }),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
    const seen: UserData[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const subscription = client.watchQuery({ query: USER_WITH_DEFERRED_ORDERS }).subscribe({
        next: (result) => {
          if (result.error) reject(result.error);
          if (result.data) seen.push(structuredClone(result.data) as UserData);
          if (result.dataState === 'complete') {
            subscription.unsubscribe();
            resolve();
          }
        },
        error: reject,
      });
    });
    await done;
    // First the user without orders (streaming), then with them (complete).
    expect(seen[0]?.user).toMatchObject({ id: 'user-2', name: expect.any(String) });
    expect(seen[0]?.user?.orders).toBeUndefined();
    const last = seen.at(-1)?.user;
    expect(last?.orders?.length).toBeGreaterThan(0);
    expect(last?.orders?.[0]).toMatchObject({ id: expect.any(String), product: { name: expect.any(String) } });
  });

  it('raw HTTP: multipart deferSpec=20220824, initial part without the deferred fields, then labelled parts at their paths', async () => {
    const { status, contentType, text, parts } = await deferredParts(gateway().url, DEFERRED);
    expect(status).toBe(200);
    expect(contentType).toBe('multipart/mixed; boundary="-"; deferSpec=20220824');
    expect(text.startsWith('\r\n---\r\ncontent-type: application/json; charset=utf-8\r\n\r\n')).toBe(true);
    expect(text.endsWith('\r\n-----\r\n')).toBe(true);
    const [initial, ...rest] = parts;
    expect(initial).toEqual({
      data: {
        user: { id: 'user-2', name: expect.any(String) },
        topProducts: [{ id: 'product-1' }, { id: 'product-2' }],
      },
      hasNext: true,
    });
    expect(rest.length).toBeGreaterThanOrEqual(1);
    expect(rest.slice(0, -1).every((part) => part.hasNext)).toBe(true);
    expect(rest.at(-1)?.hasNext).toBe(false);
    const entries = rest.flatMap((part) => part.incremental ?? []);
    expect(
      entries
        .map(({ path, label }) => ({ path, label }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([
      { path: ['topProducts', 0], label: 'productReviews' },
      { path: ['topProducts', 1], label: 'productReviews' },
      { path: ['user'], label: 'orders' },
      // An unlabelled @defer: the label the planner assigned is not the client's, so none is sent.
      { path: ['user'], label: undefined },
    ]);
    for (const entry of entries)
      expect(Object.keys(entry.data ?? {})).toEqual([entry.label === 'orders' ? 'orders' : 'reviews']);
    const whole = await postGraphQL(gateway().url, { query: PLAIN });
    expect(assemble(parts)).toEqual(whole.body.data);
  });

  it('streams: the initial part arrives while a deferred fetch is still held, its part once released', async () => {
    reviews.close();
    try {
      const answer = await streamed(
        gateway().url,
        '{ user(id: "user-2") { id name ... @defer(label: "r") { reviews { rating } } } }',
      );
      // The first part is complete (the boundary after it arrived) while the reviews fetch waits.
      const first = await answer.until((text) => partsIn(text).length >= 1 && text.split('\r\n---').length >= 3);
      expect(partsIn(first)).toEqual([{ data: { user: { id: 'user-2', name: expect.any(String) } }, hasNext: true }]);
      // The deferred fetch reaches the gate and waits there; the first part did not wait for it.
      await eventually(() => expect(reviews.holding()).toBe(1));
      expect(partsIn(first)).toHaveLength(1);
      reviews.release();
      const all = await answer.until((text) => text.endsWith('\r\n-----\r\n'));
      const last = partsIn(all).at(-1);
      expect(last).toEqual({
        hasNext: false,
        incremental: [{ data: { reviews: expect.any(Array) }, path: ['user'], label: 'r' }],
      });
    } finally {
      reviews.release();
    }
  });

  it('a deferred fetch that fails reports its error in its own part; the initial data stands', async () => {
    reviews.close();
    try {
      const answer = await streamed(
        gateway().url,
        '{ user(id: "user-2") { id ... @defer(label: "r") { reviews { rating } } } }',
      );
      await answer.until((text) => text.split('\r\n---').length >= 3);
      await eventually(() => expect(reviews.holding()).toBe(1));
      reviews.release('fail');
      const parts = partsIn(await answer.until((text) => text.endsWith('\r\n-----\r\n')));
      expect(parts[0]).toEqual({ data: { user: { id: 'user-2' } }, hasNext: true });
      expect(parts.slice(1)).toEqual([
        {
          hasNext: false,
          incremental: [
            {
              data: { reviews: null },
              path: ['user'],
              label: 'r',
              errors: [
                {
                  message: 'Subgraph "reviews" answered HTTP 500 without a GraphQL response.',
                  path: ['user', 'reviews'],
                  extensions: { code: 'SUBREQUEST_HTTP_ERROR', legacyCode: 'SUBGRAPH_BAD_RESPONSE' },
                },
              ],
            },
          ],
        },
      ]);
      // Logged like an initial part's error (a client-safe one at debug).
      await eventually(() =>
        expect(gateway().logLines()).toContainEqual(
          expect.objectContaining({ msg: 'client error', code: 'SUBREQUEST_HTTP_ERROR', level: expect.anything() }),
        ),
      );
    } finally {
      reviews.release();
    }
  });

  it('a client that does not accept multipart gets 406 NOT_ACCEPTABLE, as from Apollo Router; nothing runs', async () => {
    for (const accept of [
      undefined,
      'application/json',
      'multipart/mixed;subscriptionSpec=1.0, application/json',
      'multipart/mixed;deferSpec=20220824;q=0, application/json',
    ]) {
      const refused = await postGraphQL(gateway().url, { query: DEFERRED }, accept ? { accept } : {});
      expect(refused.status).toBe(406);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('NOT_ACCEPTABLE');
      expect(refused.body.data).toBeUndefined();
    }
  });

  it('over graphql-ws, an operation with @defer is answered whole, in one result (not streamed)', async () => {
    const client = createClient({ url: gateway().url.replace(/^http/, 'ws'), webSocketImpl: WebSocket });
    try {
      const results: unknown[] = [];
      for await (const result of client.iterate({ query: DEFERRED })) results.push(result);
      const whole = await postGraphQL(gateway().url, { query: PLAIN });
      expect(results).toEqual([{ data: whole.body.data }]);
    } finally {
      await client.dispose();
    }
  });

  it("@defer inside a subscription is refused as the client's error (BAD_REQUEST), not a server failure", async () => {
    const client = createClient({ url: gateway().url.replace(/^http/, 'ws'), webSocketImpl: WebSocket });
    try {
      const failure = await (async () => {
        for await (const _ of client.iterate({
          query: 'subscription { reviewAdded { comment ... @defer { rating } } }',
        })) {
          return 'an event';
        }
        return 'completed';
      })().catch((error: unknown) => error);
      expect(failure).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('@defer is not served in subscriptions'),
          extensions: expect.objectContaining({ code: 'BAD_REQUEST' }),
        }),
      ]);
    } finally {
      await client.dispose();
    }
  });

  it('an operation without @defer is answered as JSON to the same Accept', async () => {
    const plain = await postGraphQL(gateway().url, { query: PLAIN }, { accept: DEFER_ACCEPT });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(plain.body.data?.user).toBeTruthy();
  });

  it('authorization: a deferred field this request may not see is reported in the first payload (paths come from the operation), and its null part carries the error again', async () => {
    const { parts } = await deferredParts(
      gateway().url,
      '{ user(id: "user-1") { id ... @defer(label: "private") { address } } }',
    );
    const [initial, ...rest] = parts;
    // An inline fragment without a type is `... on ` in the path, as Apollo Router writes it.
    expect(initial).toEqual({
      data: { user: { id: 'user-1' } },
      errors: [
        {
          message: 'Unauthorized field or type',
          path: ['user', '... on ', 'address'],
          extensions: { code: 'UNAUTHORIZED_FIELD_OR_TYPE' },
        },
      ],
      hasNext: true,
    });
    const entries = rest.flatMap((part) => part.incremental ?? []);
    expect(entries).toEqual([
      {
        data: null,
        path: ['user'],
        label: 'private',
        errors: [
          {
            message: 'Unauthorized field or type',
            path: ['user', '... on ', 'address'],
            extensions: { code: 'UNAUTHORIZED_FIELD_OR_TYPE' },
          },
        ],
      },
    ]);
    // Signed in, the same operation delivers it.
    const signed = await deferredParts(
      gateway().url,
      '{ user(id: "user-1") { id ... @defer(label: "private") { address } } }',
      await bearer(),
    );
    const delivered = signed.parts.flatMap((part) => part.incremental ?? []);
    expect(delivered).toEqual([
      { data: { address: expect.stringMatching(/Main Street$/) }, path: ['user'], label: 'private' },
    ]);
  });

  it('depth: fields in a deferred fragment count toward MAX_DEPTH (refused before anything runs)', async () => {
    const deep = '{ user(id: "user-2") { id ... @defer { reviews { product { reviews { author { name } } } } } } }';
    const refused = await deferredParts(gateway().url, deep);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('MAX_DEPTH_LIMIT');
    const shallow = await deferredParts(
      gateway().url,
      '{ user(id: "user-2") { id ... @defer { reviews { rating } } } }',
    );
    expect(shallow.status).toBe(200);
  });

  it('cost: a deferred fragment counts toward MAX_COST (refused before anything runs)', async () => {
    const query = '{ topProducts(first: 20) { id ... @defer { reviews { rating author { reviews { rating } } } } } }';
    const refused = await deferredParts(gateway().url, query);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('COST_ESTIMATED_TOO_EXPENSIVE');
    // Without the deferred fragment it is within the limit.
    const cheap = await postGraphQL(gateway().url, { query: '{ topProducts(first: 20) { id } }' });
    expect(cheap.status).toBe(200);
  });
});

describe.each(MOUNTS)('@defer and the response budget on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()), MAX_RESPONSE_BYTES: '1500' }));

  it('MAX_RESPONSE_BYTES covers the whole operation: a deferred block that spends it ends the answer with RESPONSE_TOO_LARGE', async () => {
    const { status, parts } = await deferredParts(
      gateway().url,
      '{ user(id: "user-2") { id ... @defer(label: "big") { name } } topProducts(first: 20) { id ... @defer { reviews { rating comment } } } }',
    );
    expect(status).toBe(200);
    expect(parts[0]?.hasNext).toBe(true);
    const last = parts.at(-1);
    expect(last).toEqual({
      hasNext: false,
      incremental: [
        {
          data: null,
          path: [],
          errors: [
            {
              message: expect.stringContaining('larger than the limit of 1500 bytes'),
              extensions: { code: 'RESPONSE_TOO_LARGE', maxResponseBytes: 1500 },
            },
          ],
        },
      ],
    });
    // Nothing of the reviews got through.
    expect(JSON.stringify(parts)).not.toContain('"comment"');
  });
});

// The executor choice is the core's, the same on every mount: one mount shows it.
describe.each(MOUNTS.slice(0, 1))('@defer with QUERY_PLAN_EXECUTOR=apollo on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()), QUERY_PLAN_EXECUTOR: 'apollo' }));

  it("is an unknown directive (@apollo/gateway's executeQueryPlan cannot run @defer plans)", async () => {
    const { status, body } = await postGraphQL(gateway().url, { query: DEFERRED }, { accept: DEFER_ACCEPT });
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('Unknown directive "@defer"'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });
});
