import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { getProduct, getUser } from '@fedgw/subgraphs';
import {
  addReview,
  eventually,
  MOUNTS,
  MULTIPART_ACCEPT,
  type MultipartResponse,
  openMultipart,
  type RunningGateway,
  SUPERGRAPH_PATH,
  startGateway,
  subgraphUrlEnv,
  WARM_UP,
  warmUp,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * Multipart HTTP subscriptions (Apollo's protocol, what Apollo Client 4's `HttpLink` uses) on
 * every mount: the real Apollo Client receiving federated `reviewAdded` events, and the wire
 * read by hand for what the client hides (heartbeats, framing, refusals, slots, drain).
 */
const API_KEY = 'multipart-key-0123456789';
const REVIEW_ADDED = `subscription OnReview($productId: ID) {
  reviewAdded(productId: $productId) { rating comment author { name } product { name price } }
}`;
const TOO_DEEP = 'subscription { reviewAdded { product { reviews { author { reviews { id } } } } } }';
const IN_STOCK = '  inStock: Boolean! @join__field(graph: PRODUCTS)\n';
const HEARTBEAT_MS = 100;
const MULTIPART_CONTENT_TYPE = 'multipart/mixed;boundary="graphql";subscriptionSpec="1.0"';

const subgraphs = subgraphsForFile();

type ReviewAdded = { reviewAdded: { comment: string } };
interface Result {
  data?: unknown;
  error?: { errors?: readonly { extensions?: Record<string, unknown> }[] };
}

/** A subscription through Apollo Client 4 (`HttpLink`, global fetch): its results, and how it ended. */
function subscribeWithApollo(url: string, query: string, variables: Record<string, unknown>, key = API_KEY) {
  const client = new ApolloClient({
    link: new HttpLink({ uri: url, headers: { 'x-api-key': key } }),
    cache: new InMemoryCache(),
  });
  const results: Result[] = [];
  let settle!: (how: string) => void;
  const ended = new Promise<string>((resolve) => {
    settle = resolve;
  });
  const subscription = client.subscribe({ query: gql(query), variables, fetchPolicy: 'no-cache' }).subscribe({
    next: (result) => results.push(result as Result),
    error: (error) => settle(`error: ${String(error)}`),
    complete: () => settle('complete'),
  });
  const events = () => results.filter((result) => (result.data as ReviewAdded)?.reviewAdded?.comment !== WARM_UP);
  return { results, events, ended, stop: () => subscription.unsubscribe() };
}

/** Adds warm-up reviews until `hasOne()`: the subscription is live at the subgraph. */
const untilLive = (productId: string, live: () => boolean) =>
  warmUp({ reviewsUrl: subgraphs().reviews.url, productId, live });

const payloads = (response: MultipartResponse) => response.parts().filter((part) => 'payload' in part);

function expectedReview(productId: string, rating: number, comment: string, author: string) {
  const product = getProduct(productId);
  return {
    reviewAdded: {
      rating,
      comment,
      author: { name: getUser(author)?.name },
      product: { name: product?.name, price: product?.price },
    },
  };
}

describe.each(MOUNTS)('multipart subscriptions on %s', (mount) => {
  const productId = `product-${40 + MOUNTS.indexOf(mount)}`;
  let gateway: RunningGateway;
  let supergraphPath: string;
  beforeAll(async () => {
    supergraphPath = join(await mkdtemp(join(tmpdir(), 'multipart-')), 'supergraph.graphql');
    await writeFile(supergraphPath, readFileSync(SUPERGRAPH_PATH, 'utf8'));
    gateway = await startGateway(mount, {
      ...subgraphUrlEnv(subgraphs()),
      SUPERGRAPH_PATH: supergraphPath,
      SUPERGRAPH_POLL_INTERVAL_MS: '200',
      GATEWAY_PLUGINS: 'api-key',
      GATEWAY_API_KEYS: `contract:${API_KEY}`,
      MAX_DEPTH: '4',
      SUBSCRIPTION_MULTIPART_HEARTBEAT_MS: String(HEARTBEAT_MS),
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it("delivers each review to Apollo Client's HttpLink as a federated event, in order", async () => {
    const subscription = subscribeWithApollo(gateway.url, REVIEW_ADDED, { productId });
    try {
      await untilLive(productId, () => subscription.results.length > 0);
      await addReview(subgraphs().reviews.url, { productId, rating: 5, comment: 'first', author: 'user-7' });
      await addReview(subgraphs().reviews.url, { productId, rating: 2, comment: 'second', author: 'user-9' });
      await addReview(subgraphs().reviews.url, { productId: 'product-1', rating: 3, comment: 'another product' });
      await addReview(subgraphs().reviews.url, { productId, rating: 4, comment: 'third', author: 'user-7' });
      await eventually(() => expect(subscription.events()).toHaveLength(3));
      // Apollo Client's cache adds __typename to every selection.
      expect(subscription.events()).toMatchObject([
        { data: expectedReview(productId, 5, 'first', 'user-7') },
        { data: expectedReview(productId, 2, 'second', 'user-9') },
        { data: expectedReview(productId, 4, 'third', 'user-7') },
      ]);
    } finally {
      subscription.stop();
    }
  });

  it('writes Apollo Router\'s framing: a heartbeat at once and then every interval, each event as {"payload": …}', async () => {
    const response = await openMultipart(
      gateway.url,
      { query: REVIEW_ADDED, variables: { productId } },
      { 'x-api-key': API_KEY },
    );
    try {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(MULTIPART_CONTENT_TYPE);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(await response.take(3)).toEqual([{}, {}, {}]);
      expect(response.text().startsWith('\r\n--graphql\r\ncontent-type: application/json\r\n\r\n{}\r\n--graphql')).toBe(
        true,
      );
      await untilLive(productId, () => payloads(response).length > 0);
      expect(payloads(response)[0]).toEqual({
        payload: { data: expectedReview(productId, 1, WARM_UP, 'user-3') },
      });
    } finally {
      response.abort();
    }
  });

  it('serves a GET subscription that carries a CSRF-prevention header; one without is refused as plain HTTP refuses it', async () => {
    const url = `${gateway.url}?query=${encodeURIComponent(REVIEW_ADDED)}&variables=${encodeURIComponent(JSON.stringify({ productId }))}`;
    const headers = { accept: MULTIPART_ACCEPT, 'x-api-key': API_KEY };
    const controller = new AbortController();
    const served = await fetch(url, {
      headers: { ...headers, 'apollo-require-preflight': 'true' },
      signal: controller.signal,
    });
    controller.abort();
    expect([served.status, served.headers.get('content-type')]).toEqual([200, MULTIPART_CONTENT_TYPE]);
    const refused = await fetch(url, { headers });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Cross-Site Request Forgery');
  });

  it('answers a query sent with the multipart Accept as plain HTTP does: one JSON answer', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: MULTIPART_ACCEPT, 'x-api-key': API_KEY },
      body: JSON.stringify({ query: '{ product(id: "product-1") { name } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(await response.json()).toEqual({ data: { product: { name: getProduct('product-1')?.name } } });
  });

  it('answers a malformed body sent with the multipart Accept as plain HTTP does: 400 BAD_REQUEST', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: MULTIPART_ACCEPT, 'x-api-key': API_KEY },
      body: '{"query": "subscription { reviewAdded { id } }"',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Result['error'])?.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  });

  it('refuses before the stream opens with the HTTP status and a coded JSON body', async () => {
    const unauthenticated = await openMultipart(gateway.url, { query: REVIEW_ADDED }, {});
    await unauthenticated.ended;
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(JSON.parse(unauthenticated.text()).errors[0].extensions.code).toBe('UNAUTHENTICATED');

    const tooDeep = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'multipart/mixed;subscriptionSpec="1.0", application/json',
        'x-api-key': API_KEY,
      },
      body: JSON.stringify({ query: TOO_DEEP }),
    });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await tooDeep.json()) as Result['error'])?.errors?.[0]?.extensions?.code).toBe('MAX_DEPTH_LIMIT');
  });

  it('gives Apollo Client the code of a refused subscription', async () => {
    const subscription = subscribeWithApollo(gateway.url, TOO_DEEP, {});
    expect(await subscription.ended).toBe('complete');
    expect(subscription.results.map((result) => result.error?.errors?.map((error) => error.extensions?.code))).toEqual([
      ['MAX_DEPTH_LIMIT'],
    ]);
  });

  it('ends a subscription a new supergraph stops with {"payload": null, "errors"}, which Apollo Client reports', async () => {
    const subscription = subscribeWithApollo(gateway.url, REVIEW_ADDED, { productId });
    const raw = await openMultipart(
      gateway.url,
      { query: REVIEW_ADDED, variables: { productId } },
      { 'x-api-key': API_KEY },
    );
    await untilLive(productId, () => subscription.results.length > 0 && payloads(raw).length > 0);
    const supergraph = readFileSync(SUPERGRAPH_PATH, 'utf8');
    expect(supergraph).toContain(IN_STOCK);
    await writeFile(supergraphPath, supergraph.replace(IN_STOCK, ''));

    await raw.ended;
    expect(raw.closed()).toBe(true);
    expect(raw.parts().at(-1)).toEqual({
      payload: null,
      errors: [expect.objectContaining({ extensions: { code: 'SUBSCRIPTION_SCHEMA_RELOAD' } })],
    });
    expect(await subscription.ended).toBe('complete');
    expect(subscription.results.at(-1)?.error?.errors?.map((error) => error.extensions?.code)).toEqual([
      'SUBSCRIPTION_SCHEMA_RELOAD',
    ]);
  });

  it('completes every stream with the close delimiter on SIGTERM, and exits 0', async () => {
    const subscription = subscribeWithApollo(gateway.url, REVIEW_ADDED, { productId });
    const raw = await openMultipart(
      gateway.url,
      { query: REVIEW_ADDED, variables: { productId } },
      { 'x-api-key': API_KEY },
    );
    await untilLive(productId, () => subscription.results.length > 0 && payloads(raw).length > 0);
    const exit = gateway.stop();
    await raw.ended;
    expect(raw.closed()).toBe(true);
    expect(payloads(raw).every((part) => part.payload !== null)).toBe(true);
    expect(await subscription.ended).toBe('complete');
    expect(subscription.results.every((result) => result.error === undefined)).toBe(true);
    expect(await exit).toBe(0);
  });
});

describe.each(MOUNTS)(
  'multipart subscriptions with SUBSCRIPTION_MAX_CONNECTIONS=1, SUBSCRIPTION_MAX_PER_CLIENT=1 on %s',
  (mount) => {
    const productId = `product-${45 + MOUNTS.indexOf(mount)}`;
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(mount, {
        ...subgraphUrlEnv(subgraphs()),
        SUBSCRIPTION_MAX_CONNECTIONS: '1',
        SUBSCRIPTION_MAX_PER_CLIENT: '1',
      });
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('counts each stream as a connection; a client that leaves frees its connection and subscription at once', async () => {
      const first = await openMultipart(gateway.url, { query: REVIEW_ADDED, variables: { productId } });
      expect(first.status).toBe(200);
      await first.take(1);
      const refused = await openMultipart(gateway.url, { query: REVIEW_ADDED, variables: { productId } });
      await refused.ended;
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.text()).errors[0].extensions.code).toBe('SUBSCRIPTION_MAX_LIMIT');

      first.abort();
      await eventually(async () => {
        const next = await openMultipart(gateway.url, { query: REVIEW_ADDED, variables: { productId } });
        next.abort();
        expect(next.status).toBe(200);
      }, 5000);
    });
  },
);

describe('multipart subscriptions with trusted documents (enforce) on express', () => {
  const PRODUCT_NAME = '{ product(id: "product-1") { name } }';
  const idOf = (body: string) => createHash('sha256').update(body).digest('hex');
  const byId = (body: string, variables: Record<string, unknown> = {}) => ({
    variables,
    extensions: { persistedQuery: { version: 1, sha256Hash: idOf(body) } },
  });
  let gateway: RunningGateway;
  beforeAll(async () => {
    const manifest = join(await mkdtemp(join(tmpdir(), 'multipart-manifest-')), 'manifest.json');
    const operations = [
      { id: idOf(REVIEW_ADDED), name: 'OnReview', type: 'subscription', body: REVIEW_ADDED },
      { id: idOf(PRODUCT_NAME), name: null, type: 'query', body: PRODUCT_NAME },
    ];
    await writeFile(manifest, JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations }));
    gateway = await startGateway('express', { ...subgraphUrlEnv(subgraphs()), TRUSTED_DOCUMENTS: manifest });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('streams a listed subscription sent by id alone (no document to read its type from)', async () => {
    const productId = 'product-49';
    const response = await openMultipart(gateway.url, byId(REVIEW_ADDED, { productId }));
    try {
      expect(response.status).toBe(200);
      await untilLive(productId, () => payloads(response).length > 0);
      expect(payloads(response)[0]).toEqual({ payload: { data: expectedReview(productId, 1, WARM_UP, 'user-3') } });
    } finally {
      response.abort();
    }
  });

  it('answers a listed query sent by id with the multipart Accept once, as JSON', async () => {
    const response = await openMultipart(gateway.url, byId(PRODUCT_NAME));
    await response.ended;
    expect([response.status, response.headers.get('content-type')]).toEqual([
      200,
      'application/graphql-response+json; charset=utf-8',
    ]);
    expect(JSON.parse(response.text())).toEqual({ data: { product: { name: getProduct('product-1')?.name } } });
  });

  it('refuses a subscription not in the manifest with 400 QUERY_NOT_IN_SAFELIST', async () => {
    const response = await openMultipart(gateway.url, { query: TOO_DEEP });
    await response.ended;
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text()).errors[0].extensions.code).toBe('QUERY_NOT_IN_SAFELIST');
  });
});

describe('multipart subscriptions with JWT on fastify', () => {
  const JWT_SECRET = 'multipart-contract-secret-long-enough-0123456789';
  const jwt = (seconds: number, scope: string) =>
    new SignJWT({ scope })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(new TextEncoder().encode(JWT_SECRET));
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway('fastify', {
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

  it('applies authorization directives to each event, and ends the stream with SUBSCRIPTION_JWT_EXPIRED', async () => {
    const productId = 'product-48';
    const HISTORY = `subscription ($productId: ID) { reviewAdded(productId: $productId) { author { name orderHistory { id } } } }`;
    const response = await openMultipart(
      gateway.url,
      { query: HISTORY, variables: { productId } },
      { authorization: `Bearer ${await jwt(3, 'profile')}` },
    );
    await untilLive(productId, () => payloads(response).length > 0);
    expect(payloads(response)[0]).toEqual({
      payload: {
        data: null,
        errors: [
          {
            message: 'Unauthorized field or type',
            path: ['reviewAdded', 'author', 'orderHistory', '@'],
            extensions: { code: 'UNAUTHORIZED_FIELD_OR_TYPE' },
          },
        ],
      },
    });
    await response.ended;
    expect(response.closed()).toBe(true);
    expect(response.parts().at(-1)).toEqual({
      payload: null,
      errors: [
        expect.objectContaining({
          extensions: { code: 'SUBSCRIPTION_JWT_EXPIRED', legacyCode: 'SUBSCRIPTION_TOKEN_EXPIRED' },
        }),
      ],
    });
  });
});
