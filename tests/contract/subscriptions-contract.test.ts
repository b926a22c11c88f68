import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getProduct, getUser } from '@fedgw/subgraphs';
import {
  addReview,
  eventually,
  MOUNTS,
  openStream,
  postGraphQL,
  type RunningGateway,
  type RunningSubgraph,
  refusalOf,
  STREAM_PROTOCOLS,
  type StreamOptions,
  type StreamProtocol,
  SUPERGRAPH_PATH,
  startGateway,
  startSubgraph,
  streamClient,
  subgraphUrlEnv,
  type TestStream,
  untilLive,
  WARM_UP,
} from '@fedgw/test-support';
import type { FormattedExecutionResult } from 'graphql';
import { createClient as createSseClient, NetworkError } from 'graphql-sse';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * Federated subscriptions end to end, on every mount and by every protocol a client uses
 * (graphql-ws, graphql-sse in distinct and single connection mode), with real clients: the
 * compiled gateway in front of real subgraph processes, `reviewAdded` served by a reviews
 * subgraph of the block's own so the block can make it fail.
 */
const API_KEY = 'subscriptions-key-0123456789';
const REVIEW_ADDED = `subscription OnReview($productId: ID) {
  reviewAdded(productId: $productId) { rating comment author { name } product { name price } }
}`;
const TOO_DEEP = `subscription { reviewAdded { product { reviews { author { reviews { id } } } } } }`;
const IN_STOCK = '  inStock: Boolean! @join__field(graph: PRODUCTS)\n';

const subgraphs = subgraphsForFile();

const JWT_SECRET = 'subscriptions-contract-secret-long-enough-0123456789';
/** A JWT for `subject` that expires `seconds` from now. */
async function jwt(subject: string, seconds: number, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

/** The key as each protocol carries it: `connection_init` for graphql-ws (as browsers must), headers for SSE. */
function withKey(protocol: StreamProtocol): StreamOptions {
  return protocol === 'ws'
    ? { connectionParams: { headers: { 'x-api-key': API_KEY } } }
    : { headers: { 'x-api-key': API_KEY } };
}

type ReviewEvent = {
  reviewAdded: { rating: number; comment: string; author: { name: string }; product: { name: string; price: number } };
};

/** What the gateway must deliver for a review: the author from users, the product from products. */
function expectedEvent(productId: string, rating: number, comment: string, author: string): FormattedExecutionResult {
  const product = getProduct(productId);
  return {
    data: {
      reviewAdded: {
        rating,
        comment,
        author: { name: getUser(author)?.name },
        product: { name: product?.name, price: product?.price },
      },
    },
  };
}

const realEvents = (stream: TestStream) =>
  stream.events.filter((event) => (event.data as ReviewEvent | undefined)?.reviewAdded.comment !== WARM_UP);

const codesOf = (event: FormattedExecutionResult | undefined) => event?.errors?.map((error) => error.extensions?.code);

describe.each(MOUNTS)('subscriptions on %s', (mount) => {
  let reviews: RunningSubgraph;
  let gateway: RunningGateway;
  let supergraphPath: string;
  const streams: TestStream[] = [];
  const open = (protocol: StreamProtocol, productId: string, options = withKey(protocol)) => {
    const stream = openStream(protocol, gateway.url, { query: REVIEW_ADDED, variables: { productId } }, options);
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    reviews = await startSubgraph('reviews');
    supergraphPath = join(await mkdtemp(join(tmpdir(), 'subscriptions-')), 'supergraph.graphql');
    await writeFile(supergraphPath, readFileSync(SUPERGRAPH_PATH, 'utf8'));
    gateway = await startGateway(mount, {
      ...subgraphUrlEnv({ ...subgraphs(), reviews }),
      SUPERGRAPH_PATH: supergraphPath,
      SUPERGRAPH_POLL_INTERVAL_MS: '200',
      GATEWAY_PLUGINS: 'api-key',
      GATEWAY_API_KEYS: `contract:${API_KEY}`,
      MAX_DEPTH: '4',
      SUBSCRIPTION_MAX_PER_CONNECTION: '2',
    });
  });
  afterAll(async () => {
    for (const stream of streams) stream.stop();
    await gateway?.stop();
    await reviews?.stop('SIGKILL');
  });

  describe.each(STREAM_PROTOCOLS)('over %s', (protocol) => {
    // One product per protocol, so the blocks' events never cross.
    const productId = `product-${STREAM_PROTOCOLS.indexOf(protocol) + 10}`;

    it('delivers each review as a federated event, in order', async () => {
      const stream = open(protocol, productId);
      await untilLive(reviews.url, [stream], productId);
      await addReview(reviews.url, { productId, rating: 5, comment: 'first', author: 'user-7' });
      await addReview(reviews.url, { productId, rating: 2, comment: 'second', author: 'user-9' });
      await addReview(reviews.url, { productId: 'product-1', rating: 3, comment: 'another product' });
      await addReview(reviews.url, { productId, rating: 4, comment: 'third', author: 'user-7' });
      // Counted apart from warm-ups: on a loaded machine a second warm-up's event can arrive late.
      await eventually(() => expect(realEvents(stream).length).toBeGreaterThanOrEqual(3), 10_000);
      expect(realEvents(stream)).toEqual([
        expectedEvent(productId, 5, 'first', 'user-7'),
        expectedEvent(productId, 2, 'second', 'user-9'),
        expectedEvent(productId, 4, 'third', 'user-7'),
      ]);
      stream.stop();
    });

    it('answers a query sent over the same transport', async () => {
      const stream = openStream(
        protocol,
        gateway.url,
        { query: '{ product(id: "product-1") { name } }' },
        withKey(protocol),
      );
      expect(await stream.ended).toEqual({ how: 'complete' });
      expect(stream.events).toEqual([{ data: { product: { name: getProduct('product-1')?.name } } }]);
    });

    it('refuses a client without an API key, before any subscription', async () => {
      const stream = open(protocol, productId, {});
      if (protocol === 'sse') {
        // The stream is accepted; the refusal comes on it.
        expect(codesOf({ errors: await refusalOf(protocol, stream) })).toEqual(['UNAUTHENTICATED']);
        return;
      }
      const end = await stream.ended;
      if (protocol === 'ws') expect(end).toEqual({ how: 'error', closeCode: 4403 });
      else {
        // Single connection mode: the reservation (PUT) itself is refused, so no stream is opened.
        expect(end.status).toBe(401);
        expect(end.errors?.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
      }
      expect(stream.events).toEqual([]);
    });

    it('accepts the key in the headers of the upgrade or request too', async () => {
      const stream = open(protocol, productId, { headers: { 'x-api-key': API_KEY } });
      await untilLive(reviews.url, [stream], productId);
      stream.stop();
    });

    it('applies operation limits to the subscription document', async () => {
      const stream = openStream(protocol, gateway.url, { query: TOO_DEEP }, withKey(protocol));
      expect(codesOf({ errors: await refusalOf(protocol, stream) })).toEqual(['MAX_DEPTH_LIMIT']);
    });

    it.skipIf(protocol === 'sse')(
      'caps the subscriptions of one connection (SUBSCRIPTION_MAX_PER_CONNECTION=2)',
      async () => {
        const client = streamClient(protocol, gateway.url, withKey(protocol));
        try {
          const payload = { query: REVIEW_ADDED, variables: { productId } };
          const [first, second] = [client.subscribe(payload), client.subscribe(payload)];
          await untilLive(reviews.url, [first, second], productId);
          const third = client.subscribe(payload);
          expect(codesOf({ errors: await refusalOf(protocol, third) })).toEqual(['SUBSCRIPTION_MAX_LIMIT']);
          // The two it holds keep going.
          const before = [first.events.length, second.events.length];
          await addReview(reviews.url, { productId, rating: 3, comment: 'after the refusal' });
          await Promise.all([first.take((before[0] as number) + 1), second.take((before[1] as number) + 1)]);
        } finally {
          await client.dispose();
        }
      },
    );
  });

  // graphql-sse's own client, nothing wrapped: an HTTP error would reach it as
  // `Server responded with 400:` and nothing more, so every refusal on an accepted stream is an event.
  describe.each([
    ['distinct', false],
    ['single', true],
  ])("graphql-sse's client in %s connection mode", (_mode, singleConnection) => {
    const iterate = async (payload: { query: string; operationName?: string }, headers = { 'x-api-key': API_KEY }) => {
      const client = createSseClient({ url: gateway.url, singleConnection, headers, retryAttempts: 0 });
      const results: unknown[] = [];
      try {
        for await (const result of client.iterate(payload)) results.push(result);
      } finally {
        client.dispose();
      }
      return results;
    };

    it.each([
      [
        'a validation error',
        { query: 'subscription { reviewAdded { nope } }' },
        'GRAPHQL_VALIDATION_FAILED',
        /Cannot query field "nope" on type "Review"/,
      ],
      ['a syntax error', { query: 'subscription {' }, 'GRAPHQL_PARSE_FAILED', /Syntax Error/],
      ['the operation limits', { query: TOO_DEEP }, 'MAX_DEPTH_LIMIT', /levels deep; the limit is 4/],
      [
        'an unknown operation name',
        { query: REVIEW_ADDED, operationName: 'Missing' },
        'OPERATION_RESOLUTION_FAILURE',
        /Missing/,
      ],
    ])('receives %s as one event with its message and code, then completes', async (_name, payload, code, message) => {
      expect(await iterate(payload)).toEqual([
        {
          errors: [
            expect.objectContaining({
              message: expect.stringMatching(message),
              extensions: expect.objectContaining({ code }),
            }),
          ],
        },
      ]);
    });

    it('receives the authentication refusal (distinct: an event; single: the reservation is refused, 401)', async () => {
      const anonymous = iterate({ query: REVIEW_ADDED }, { 'x-api-key': 'not-a-key-0123456789' });
      if (!singleConnection) {
        expect(await anonymous).toEqual([
          {
            errors: [
              {
                message: expect.stringMatching(/API key/i),
                extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }),
              },
            ],
          },
        ]);
        return;
      }
      const error = await anonymous.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError<Response>).response?.status).toBe(401);
    });
  });

  it('answers a distinct-mode request graphql-sse cannot read (no query) on the stream, 400 BAD_REQUEST as an event', async () => {
    const response = await fetch(`${gateway.url}?variables=%7B%7D`, {
      headers: { accept: 'text/event-stream', 'x-api-key': API_KEY },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe(
      'event: next\ndata: {"errors":[{"message":"Missing query","extensions":{"code":"BAD_REQUEST"}}]}\n\nevent: complete\ndata: \n\n',
    );
  });

  it('refuses a subscription over plain HTTP with 400 SUBSCRIPTION_NOT_SUPPORTED', async () => {
    const result = await postGraphQL(gateway.url, { query: REVIEW_ADDED }, { 'x-api-key': API_KEY });
    expect(result.status).toBe(400);
    expect(result.body.errors?.map((error) => error.extensions?.code)).toEqual(['SUBSCRIPTION_NOT_SUPPORTED']);
  });

  it('ends live subscriptions with SUBSCRIPTION_SCHEMA_RELOAD when a new supergraph loads; new ones work', async () => {
    const live = STREAM_PROTOCOLS.map((protocol) => open(protocol, 'product-20'));
    await untilLive(reviews.url, live, 'product-20');
    // A real change (comments are not: the gateway compares the printed schema): Product.inStock goes.
    const supergraph = readFileSync(SUPERGRAPH_PATH, 'utf8');
    expect(supergraph).toContain(IN_STOCK);
    await writeFile(supergraphPath, supergraph.replace(IN_STOCK, ''));
    for (const stream of live) {
      expect(await stream.ended).toEqual({ how: 'complete' });
      expect(codesOf(stream.events.at(-1))).toEqual(['SUBSCRIPTION_SCHEMA_RELOAD']);
    }
    const after = STREAM_PROTOCOLS.map((protocol) => open(protocol, 'product-21'));
    await untilLive(reviews.url, after, 'product-21');
    for (const stream of after) stream.stop();
  });

  it('ends subscriptions with WEBSOCKET_CLOSE_ERROR when the subgraph fails, and serves queries still', async () => {
    const live = STREAM_PROTOCOLS.map((protocol) => open(protocol, 'product-22'));
    await untilLive(reviews.url, live, 'product-22');
    const port = new URL(reviews.url).port;
    await reviews.stop('SIGKILL');
    for (const stream of live) {
      expect(await stream.ended).toEqual({ how: 'complete' });
      expect(codesOf(stream.events.at(-1))).toEqual(['WEBSOCKET_CLOSE_ERROR']);
    }
    const query = await postGraphQL(
      gateway.url,
      { query: '{ product(id: "product-1") { name } }' },
      { 'x-api-key': API_KEY },
    );
    expect(query.body).toEqual({ data: { product: { name: getProduct('product-1')?.name } } });
    // Back on the same address, for the next test.
    reviews = await startSubgraph('reviews', { PORT: port });
  });

  it('completes every subscription on SIGTERM and exits 0', async () => {
    const live = STREAM_PROTOCOLS.map((protocol) => open(protocol, 'product-23'));
    await untilLive(reviews.url, live, 'product-23');
    const exit = gateway.stop();
    for (const stream of live) expect(await stream.ended).toEqual({ how: 'complete' });
    expect(await exit).toBe(0);
  });
});

describe.each(MOUNTS)('subscriptions with JWT on %s', (mount) => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(mount, {
      ...subgraphUrlEnv(subgraphs()),
      GATEWAY_PLUGINS: 'jwt',
      JWT_SECRET,
      JWT_ALGORITHMS: 'HS256',
      JWT_REQUIRED: 'true',
      JWT_CLOCK_TOLERANCE_S: '0',
    });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });
  const bearer = (protocol: StreamProtocol, token: string): StreamOptions =>
    protocol === 'ws'
      ? { connectionParams: { authorization: `Bearer ${token}` } }
      : { headers: { authorization: `Bearer ${token}` } };

  it('refuses a bad token on every protocol', async () => {
    const forged = `${(await jwt('user-1', 60)).slice(0, -4)}AAAA`;
    for (const protocol of STREAM_PROTOCOLS) {
      const stream = openStream(protocol, gateway.url, { query: REVIEW_ADDED }, bearer(protocol, forged));
      if (protocol === 'sse') {
        expect(codesOf({ errors: await refusalOf(protocol, stream) })).toEqual(['UNAUTHENTICATED']);
        continue;
      }
      const end = await stream.ended;
      if (protocol === 'ws') expect(end).toEqual({ how: 'error', closeCode: 4403 });
      // Single connection mode: the reservation is refused, no stream opens.
      else expect([end.status, codesOf({ errors: end.errors })]).toEqual([401, ['UNAUTHENTICATED']]);
    }
  });

  it('applies authorization directives to each event: @requiresScopes without the scope is taken out, with it answered', async () => {
    const HISTORY = `subscription ($productId: ID) { reviewAdded(productId: $productId) { author { name orderHistory { id } } } }`;
    const reviewsUrl = subgraphs().reviews.url;
    const [without, withScope] = await Promise.all([
      jwt('user-1', 60, { scope: 'profile' }),
      jwt('user-1', 60, { scope: 'profile orders:read' }),
    ]);
    const streams = [without, withScope].map((token) =>
      openStream('ws', gateway.url, { query: HISTORY, variables: { productId: 'product-31' } }, bearer('ws', token)),
    );
    await untilLive(reviewsUrl, streams, 'product-31');
    for (const stream of streams) stream.stop();
    const [refused, allowed] = streams.map((stream) => stream.events[0]);
    // orderHistory and author are non-null: taking the field out nulls up to the nullable root.
    expect(refused).toEqual({
      data: null,
      errors: [
        {
          message: 'Unauthorized field or type',
          path: ['reviewAdded', 'author', 'orderHistory', '@'],
          extensions: { code: 'UNAUTHORIZED_FIELD_OR_TYPE' },
        },
      ],
    });
    type History = { reviewAdded: { author: { name: string; orderHistory: unknown[] } } } | null | undefined;
    const author = (allowed?.data as History)?.reviewAdded.author;
    expect(allowed?.errors).toBeUndefined();
    expect(author?.name).toBe(getUser('user-3')?.name);
    expect(Array.isArray(author?.orderHistory)).toBe(true);
  });

  it('ends each subscription with SUBSCRIPTION_JWT_EXPIRED when its token expires', async () => {
    const token = await jwt('user-1', 3);
    const live = STREAM_PROTOCOLS.map((protocol) =>
      openStream(
        protocol,
        gateway.url,
        { query: REVIEW_ADDED, variables: { productId: 'product-30' } },
        bearer(protocol, token),
      ),
    );
    const reviewsUrl = subgraphs().reviews.url;
    await untilLive(reviewsUrl, live, 'product-30');
    for (const stream of live) {
      expect(await stream.ended).toEqual({ how: 'complete' });
      expect(codesOf(stream.events.at(-1))).toEqual(['SUBSCRIPTION_JWT_EXPIRED']);
    }
  });
});

describe('subscriptions with trusted documents (enforce) on fastify', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    const manifest = join(await mkdtemp(join(tmpdir(), 'subscriptions-manifest-')), 'manifest.json');
    await writeFile(
      manifest,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [
          {
            id: createHash('sha256').update(REVIEW_ADDED).digest('hex'),
            name: 'OnReview',
            type: 'subscription',
            body: REVIEW_ADDED,
          },
        ],
      }),
    );
    gateway = await startGateway('fastify', { ...subgraphUrlEnv(subgraphs()), TRUSTED_DOCUMENTS: manifest });
  });
  afterAll(async () => {
    const code = await gateway?.stop();
    expect(code, gateway?.output().slice(-4000)).toBe(0);
  });

  it.each(STREAM_PROTOCOLS)('over %s: runs the listed subscription and refuses any other', async (protocol) => {
    const other = `subscription { reviewAdded(productId: "product-32") { rating } }`;
    const refused = openStream(protocol, gateway.url, { query: other });
    expect(codesOf({ errors: await refusalOf(protocol, refused) })).toEqual(['QUERY_NOT_IN_SAFELIST']);
    const listed = openStream(protocol, gateway.url, { query: REVIEW_ADDED, variables: { productId: 'product-32' } });
    await untilLive(subgraphs().reviews.url, [listed], 'product-32');
    listed.stop();
  });
});
