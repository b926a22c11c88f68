import {
  type ChaosSubgraph,
  MOUNTS,
  postGraphQL,
  startChaosSubgraph,
  subgraphUrlEnv,
  upgradeStatus,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * The one origin policy (CORS_*) on every mount, over raw HTTP: preflights, the headers of
 * answers, credentials, and the streaming transports (WebSocket, SSE) that browsers open with
 * the user's cookie and no preflight. The users subgraph sits behind a recording proxy, to show
 * a preflight never reaches a subgraph. A real browser page is in browser-cors-contract.test.ts.
 */
const SECRET = 'cors-contract-secret-long-enough-0123456789';
const APP = 'https://app.example.com';
const PREVIEW = 'https://pr-42.preview.example.com';
const EVIL = 'https://evil.example.net';
const RATE_LIMIT_MAX = 25;
const ADDRESS = '{ user(id: "user-3") { id address } }';
let COOKIE = '';

const subgraphs = subgraphsForFile();
let users: ChaosSubgraph;
beforeAll(async () => {
  users = await startChaosSubgraph({ target: subgraphs().users.url });
  COOKIE = await sessionCookie();
});
afterAll(async () => {
  await users?.close();
});

async function sessionCookie(): Promise<string> {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-3')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  return `session=${token}`;
}

function preflight(url: string, origin: string, requestHeaders = 'content-type, authorization') {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': requestHeaders,
    },
  });
}

/** Every `access-control-*` header of a response. */
function corsHeadersOf(response: { headers: Headers }): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

describe.each(MOUNTS)('origin policy on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    SUBGRAPH_USERS_URL: users.url,
    CORS_ORIGINS: APP,
    CORS_MATCH_ORIGINS: 'https://pr-[0-9]+\\.preview\\.example\\.com',
    CORS_ALLOW_CREDENTIALS: 'true',
    CORS_EXPOSE_HEADERS: 'x-request-id,ratelimit-remaining',
    CORS_MAX_AGE: '300',
    GATEWAY_PLUGINS: 'jwt,rate-limit',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    JWT_COOKIE: 'session',
    RATE_LIMIT_KEY: 'sub',
    RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    RATE_LIMIT_WINDOW: '60s',
  }));

  it('answers a preflight from an allowed origin with its grant, mirroring the headers asked for', async () => {
    const response = await preflight(gateway().url, APP);
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
      'access-control-allow-headers': 'content-type, authorization',
      'access-control-max-age': '300',
    });
    expect(response.headers.get('vary')).toMatch(/Origin/);
    expect(await response.text()).toBe('');
  });

  it('an origin matching CORS_MATCH_ORIGINS is allowed; one that only contains a match is not (anchored)', async () => {
    const preview = await preflight(gateway().url, PREVIEW);
    expect(preview.headers.get('access-control-allow-origin')).toBe(PREVIEW);
    const lookalike = await preflight(gateway().url, `${PREVIEW}.evil.example.net`);
    expect(lookalike.status).toBe(204);
    expect(corsHeadersOf(lookalike)).toEqual({});
  });

  it('a disallowed origin gets no Access-Control-* header and no error body', async () => {
    const response = await preflight(gateway().url, EVIL);
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({});
    expect(await response.text()).toBe('');
  });

  it('a header list that is not plain header names is not mirrored', async () => {
    const response = await preflight(gateway().url, APP, 'content-type; x');
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
  });

  it("answers carry the grant for an allowed origin's page (with the exposed headers), and Vary: Origin for everyone", async () => {
    const allowed = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { id } }' }, { origin: APP });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-expose-headers')).toBe('x-request-id, ratelimit-remaining');
    expect(allowed.headers.get('vary')).toMatch(/Origin/);
    const other = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { id } }' }, { origin: EVIL });
    expect(other.status).toBe(200);
    expect(corsHeadersOf(other)).toEqual({});
    expect(other.headers.get('vary')).toMatch(/Origin/);
  });

  it('the CSRF rule still holds with CORS on: a simple request (text/plain, no preflight) is refused', async () => {
    const response = await fetch(gateway().url, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'text/plain', cookie: await sessionCookie() },
      body: JSON.stringify({ query: ADDRESS }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/CSRF|preflight/i);
  });

  it('a WebSocket upgrade with the cookie from a disallowed origin is refused (403); from an allowed one it opens', async () => {
    const cookie = await sessionCookie();
    expect(await upgradeStatus(gateway().url, { origin: EVIL, cookie })).toBe(403);
    expect(await upgradeStatus(gateway().url, { origin: APP, cookie })).toBe(101);
    // Without a cookie there is nothing of the user's to borrow; without an Origin it is no browser page.
    expect(await upgradeStatus(gateway().url, { origin: EVIL })).toBe(101);
    expect(await upgradeStatus(gateway().url, { cookie })).toBe(101);
    // The page's own origin (the host it was served from) is always allowed.
    const own = new URL(gateway().url).origin;
    expect(await upgradeStatus(gateway().url, { origin: own, cookie })).toBe(101);
  });

  it('an SSE stream with the cookie from a disallowed origin is refused (403 ORIGIN_NOT_ALLOWED) and runs nothing', async () => {
    users.resetCounts();
    const url = `${gateway().url}?query=${encodeURIComponent(ADDRESS)}`;
    const cookie = await sessionCookie();
    const refused = await fetch(url, { headers: { accept: 'text/event-stream', origin: EVIL, cookie } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'ORIGIN_NOT_ALLOWED',
    );
    expect(users.requests).toHaveLength(0);
    const allowed = await fetch(url, { headers: { accept: 'text/event-stream', origin: APP, cookie } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(await allowed.text()).toContain('address');
  });

  it("a multipart subscription (Apollo Client's HttpLink) with the cookie from a disallowed origin is refused (403)", async () => {
    const subscribe = (origin: string) =>
      fetch(gateway().url, {
        method: 'POST',
        headers: {
          accept: 'multipart/mixed;subscriptionSpec="1.0", application/json',
          'content-type': 'application/json',
          origin,
          cookie: COOKIE,
        },
        body: JSON.stringify({ query: 'subscription { reviewAdded { id } }' }),
      });
    const refused = await subscribe(EVIL);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'ORIGIN_NOT_ALLOWED',
    );
    const allowed = await subscribe(APP);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
    await allowed.body?.cancel();
  });

  it('preflights are charged to the client (429 past the limit) and never reach a subgraph', async () => {
    users.resetCounts();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT_MAX + 5; i++) statuses.push((await preflight(gateway().url, APP)).status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(5);
    const refused = await preflight(gateway().url, APP);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'REQUEST_RATE_LIMITED',
    );
    // The same address is over its limit for operations too; a signed-in caller (keyed by subject) is not.
    const anonymous = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { id } }' });
    expect(anonymous.status).toBe(429);
    const signedIn = await postGraphQL(gateway().url, { query: ADDRESS }, { cookie: await sessionCookie() });
    expect(signedIn.status).toBe(200);
    expect(users.requests.length).toBe(1);
  });
});
