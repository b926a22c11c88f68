import { request } from 'node:http';
import {
  MOUNTS,
  MULTIPART_ACCEPT,
  postGraphQL,
  streamClient,
  subgraphUrlEnv,
  upgradeStatus,
  warmUp,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

// Class: a cross-site page making the browser run a mutation over a streaming transport. An
// `EventSource` is a GET that any page may open to any origin, with the user's cookies, and no
// preflight: `new EventSource('https://api/graphql?query=mutation{…}')`. Plain HTTP refuses a
// mutation over GET (405); the SSE transport must too, in both graphql-sse modes, while a query
// or a subscription over GET (reading) is still served. The credential here is a bearer header
// standing for the cookie a browser would attach: what is refused is the method, whoever asks.

const SECRET = 'cross-site-streams-secret-long-enough-0123456789';
const REVIEWS_OF = 'query ReviewsOf($id: ID!) { product(id: $id) { reviews { comment } } }';
const GET_MUTATION_REFUSED = {
  message: 'GET requests only support query operations, not mutation operations',
  extensions: { code: 'BAD_REQUEST' },
};

const subgraphs = subgraphsForFile();

async function bearer(subject: string): Promise<Record<string, string>> {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  return { authorization: `Bearer ${token}` };
}

const addReviewDocument = (productId: string, comment: string) =>
  `mutation { addReview(productId: "${productId}", rating: 5, comment: "${comment}") { id } }`;

/** The SSE messages of a text/event-stream body: `[event, data]` pairs, data parsed (null when empty). */
function messagesOf(body: string): [string, unknown][] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [event, data] = block.split('\n');
      const json = (data ?? '').replace(/^data: ?/, '');
      return [(event ?? '').slice('event: '.length), json === '' ? null : JSON.parse(json)];
    });
}

/** Reads a streamed response until `done(text so far)`, then stops reading; the text. */
async function readUntil(response: Response, done: (text: string) => boolean): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe.each(MOUNTS)('mutations over a GET stream on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    // Reading needs no one; adding a review needs a signed-in user.
    JWT_REQUIRED: 'false',
  }));
  const productId = `product-${60 + MOUNTS.indexOf(mount)}`;
  const commentsOf = async () => {
    const result = await postGraphQL(gateway().url, { query: REVIEWS_OF, variables: { id: productId } });
    const reviews = (result.body.data as { product: { reviews: { comment: string }[] } }).product.reviews;
    return reviews.map((review) => review.comment);
  };
  const getStream = async (query: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway().url}?query=${encodeURIComponent(query)}`, {
      headers: { accept: 'text/event-stream', ...headers },
    });

  it('distinct mode: a mutation over GET is refused as an event (405 BAD_REQUEST) and never reaches the subgraph; over POST it runs', async () => {
    const headers = await bearer('user-4');
    const refused = `cross-site GET ${mount}`;
    const response = await getStream(addReviewDocument(productId, refused), headers);
    expect(response.status).toBe(200);
    expect(messagesOf(await response.text())).toEqual([
      ['next', { errors: [GET_MUTATION_REFUSED] }],
      ['complete', null],
    ]);
    // The control: the same mutation POSTed over SSE (graphql-sse's client) runs, and shows up.
    const allowed = `same-site POST ${mount}`;
    const client = streamClient('sse', gateway().url, { headers });
    const posted = client.subscribe({ query: addReviewDocument(productId, allowed) });
    expect(await posted.ended).toEqual({ how: 'complete' });
    expect(posted.events[0]?.errors).toBeUndefined();
    await client.dispose();
    const comments = await commentsOf();
    expect(comments).toContain(allowed);
    expect(comments).not.toContain(refused);
  });

  it('single connection mode: a mutation sent by GET with the token is refused on the stream and never runs', async () => {
    const headers = await bearer('user-4');
    const put = await fetch(gateway().url, { method: 'PUT', headers });
    expect(put.status).toBe(201);
    const token = await put.text();
    const stream = await fetch(gateway().url, {
      headers: { ...headers, accept: 'text/event-stream', 'x-graphql-event-stream-token': token },
    });
    expect(stream.status).toBe(200);
    const refused = `cross-site single ${mount}`;
    const search = new URLSearchParams({
      query: addReviewDocument(productId, refused),
      extensions: JSON.stringify({ operationId: 'op-1' }),
      token,
    });
    const operation = await fetch(`${gateway().url}?${search}`, { headers });
    await operation.body?.cancel();
    expect(operation.status).toBe(202);
    const text = await readUntil(stream, (sofar) => sofar.includes('event: complete'));
    expect(messagesOf(text)).toEqual([
      ['next', { id: 'op-1', payload: { errors: [GET_MUTATION_REFUSED] } }],
      ['complete', { id: 'op-1' }],
    ]);
    expect(await commentsOf()).not.toContain(refused);
  });

  it('a query over GET is still answered on the stream', async () => {
    const response = await getStream('{ product(id: "product-1") { id } }');
    expect(messagesOf(await response.text())).toEqual([
      ['next', { data: { product: { id: 'product-1' } } }],
      ['complete', null],
    ]);
  });

  it('a subscription over GET (as an EventSource opens one) is served: it only reads', async () => {
    const subscribed = `product-${70 + MOUNTS.indexOf(mount)}`;
    const response = await getStream(`subscription { reviewAdded(productId: "${subscribed}") { comment } }`);
    expect(response.status).toBe(200);
    // Reviews until one arrives: the subscription is live at the subgraph only once the stream is open.
    let arrived = '';
    void readUntil(response, (text) => text.includes('event: next')).then((text) => {
      arrived = text;
    });
    await warmUp({
      reviewsUrl: subgraphs().reviews.url,
      productId: subscribed,
      comment: 'seen over GET',
      live: () => arrived !== '',
    });
    expect(messagesOf(arrived)[0]).toEqual(['next', { data: { reviewAdded: { comment: 'seen over GET' } } }]);
  });
});

// The same class with the credential where browsers keep it, a cookie (JWT_COOKIE): a page on
// any site opens a WebSocket, or POSTs `text/plain` (no preflight) with `Accept:
// text/event-stream`, and the browser attaches the user's cookie. The origin policy refuses both
// before any operation is read; the app's own origin (CORS_ORIGINS, with credentials) is served.
/** The subgraphs, and JWT verification reading the token from the `session` cookie. */
const cookieJwtEnv = () => ({
  ...subgraphUrlEnv(subgraphs()),
  GATEWAY_PLUGINS: 'jwt',
  JWT_SECRET: SECRET,
  JWT_ALGORITHMS: 'HS256',
  JWT_REQUIRED: 'false',
  JWT_COOKIE: 'session',
});
const APP = 'https://app.example.com';
const EVIL = 'https://evil.example.net';

describe.each(MOUNTS)('a cross-site page with the user cookie on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...cookieJwtEnv(),
    CORS_ORIGINS: APP,
    CORS_ALLOW_CREDENTIALS: 'true',
  }));
  const productId = `product-${70 + MOUNTS.indexOf(mount)}`;
  const cookie = async () => `session=${(await bearer('user-5')).authorization?.slice('Bearer '.length)}`;
  // The attacker's page sends text/plain (no preflight); the app's own sends JSON after its preflight.
  const ssePost = async (origin: string, comment: string, contentType = 'text/plain') =>
    fetch(gateway().url, {
      method: 'POST',
      headers: { origin, cookie: await cookie(), accept: 'text/event-stream', 'content-type': contentType },
      body: JSON.stringify({ query: addReviewDocument(productId, comment) }),
    });

  it('cross-site WebSocket hijacking: an upgrade with the cookie from another site is refused (403)', async () => {
    expect(await upgradeStatus(gateway().url, { origin: EVIL, cookie: await cookie() })).toBe(403);
    expect(await upgradeStatus(gateway().url, { origin: APP, cookie: await cookie() })).toBe(101);
  });

  it('a cross-site text/plain POST to the SSE transport is refused (403 ORIGIN_NOT_ALLOWED) and its mutation never runs', async () => {
    const refused = await ssePost(EVIL, `cross-site POST ${mount}`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('ORIGIN_NOT_ALLOWED');
    const allowed = await ssePost(APP, `app POST ${mount}`, 'application/json');
    expect(allowed.status).toBe(200);
    await allowed.text();
    const result = await postGraphQL(gateway().url, { query: REVIEWS_OF, variables: { id: productId } });
    const comments = (result.body.data as { product: { reviews: { comment: string }[] } }).product.reviews.map(
      (review) => review.comment,
    );
    expect(comments).toContain(`app POST ${mount}`);
    expect(comments).not.toContain(`cross-site POST ${mount}`);
  });
});

// The same class across schemes: an origin is scheme, host and port. The gateway's https origin
// and an http page on the same host are two origins, and anyone on the network path can write
// the http page. TLS ends at a proxy here (127.0.0.2, trusted), which says how the client came
// in X-Forwarded-Proto; from any other hop that header is not believed.
const PROXY = '127.0.0.2';
const DIRECT = '127.0.0.1';
const API = 'api.example.com';
const STREAMS = ['ws', 'sse', 'multipart'] as const;

/** The status a cookie-bearing stream request from `localAddress` is answered with (101: a WebSocket opened). */
function streamStatus(
  transport: (typeof STREAMS)[number],
  url: string,
  localAddress: string,
  headers: Record<string, string>,
): Promise<number> {
  if (transport === 'ws') {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers, localAddress });
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('open', () => {
        resolve(101);
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }
  const [accept, query] =
    transport === 'sse'
      ? ['text/event-stream', '{ __typename }']
      : [MULTIPART_ACCEPT, 'subscription { reviewAdded(productId: "product-99") { comment } }'];
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', localAddress, headers: { ...headers, accept, 'content-type': 'application/json' } },
      (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query }));
  });
}

describe.each(MOUNTS)('a page on the http origin of an https gateway, with the user cookie, on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...cookieJwtEnv(),
    TRUSTED_PROXIES: PROXY,
  }));

  it.each(STREAMS)('over %s, only the scheme the request came by is the same origin', async (transport) => {
    const cookie = `session=${(await bearer('user-5')).authorization?.slice('Bearer '.length)}`;
    const opened = transport === 'ws' ? 101 : 200;
    const from = (localAddress: string, origin: string, proto?: string) =>
      streamStatus(transport, gateway().url, localAddress, {
        host: API,
        origin,
        cookie,
        ...(proto && { 'x-forwarded-proto': proto }),
      });
    // The gateway's own https page, through the proxy: the same origin.
    expect(await from(PROXY, `https://${API}`, 'https')).toBe(opened);
    // An http page on the same host and port (before: the host alone was compared, so it passed).
    expect(await from(PROXY, `http://${API}`, 'https')).toBe(403);
    // Straight to the gateway (plain http), X-Forwarded-Proto is the client's word, not a proxy's.
    expect(await from(DIRECT, `https://${API}`, 'https')).toBe(403);
    expect(await from(DIRECT, `http://${API}`)).toBe(opened);
  });
});
