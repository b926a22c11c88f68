import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  closedPortUrl,
  jwks,
  now,
  type SigningKey,
  signingKey,
  startTestHttpServer,
  token,
  unsignedToken,
} from '@fedgw/test-support';
import { exportJWK, exportPKCS8, exportSPKI } from 'jose';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatewayPlugin } from '../../../src/contract/index.js';
import { type JwtAuthOptions, jwtAuth } from '../../../src/plugins/jwt/index.js';
import { type JwksServer, startJwksServer } from '../helpers/jwks-server.js';
import { issueFields, optionsError } from '../helpers/options-error.js';
import { authenticate, gatewayContext, rejection, subgraphHeaders } from '../helpers/scope.js';

const ISSUER = 'https://issuer.example';
const AUDIENCE = 'fedgw';
const GOOD_CLAIMS = { iss: ISSUER, aud: AUDIENCE };
const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
/**
 * The JWKS cooldowns (jose's after a fetch, ours after a failed one) read `Date.now()`: the
 * tests below fake `Date` alone and move it past a cooldown, while fetches and their timeouts
 * keep real timers.
 */
const passTime = (ms: number) => vi.advanceTimersByTime(ms);

let key: SigningKey;
let otherKey: SigningKey;
beforeAll(async () => {
  key = await signingKey('key-1');
  otherKey = await signingKey('key-2');
});

async function expectUnauthenticated(
  plugin: GatewayPlugin,
  headers: Record<string, string>,
  challenge = 'Bearer error="invalid_token"',
): Promise<void> {
  const error = await rejection(plugin, headers);
  expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'Invalid or expired token' });
  expect(error.wwwAuthenticate).toBe(challenge);
}
const EXPIRED_CHALLENGE = 'Bearer error="invalid_token", error_description="The access token expired"';

describe('jwtAuth with a remote JWKS', () => {
  let server: JwksServer;
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    server = await startJwksServer(jwks(key).keys);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await server.close();
  });

  const plugin = (options: Partial<JwtAuthOptions> = {}) =>
    jwtAuth({ jwksUrl: server.url, algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE, ...options });

  it('accepts a valid token and returns its subject and claims, without the token', async () => {
    const jwt = await token(key, { claims: { ...GOOD_CLAIMS, scope: 'read' } });
    const identity = await authenticate(plugin(), bearer(jwt));
    expect(identity).toEqual({
      subject: 'user-1',
      claims: expect.objectContaining({ sub: 'user-1', iss: ISSUER, aud: AUDIENCE, scope: 'read' }),
    });
    expect(identity).not.toHaveProperty('token');
    expect(Object.isFrozen(identity?.claims)).toBe(true);
    expect(server.fetches).toBe(1);
  });

  it('matches the scheme case-insensitively', async () => {
    const jwt = await token(key, { claims: GOOD_CLAIMS });
    await expect(authenticate(plugin(), { authorization: `bearer   ${jwt}` })).resolves.toMatchObject({
      subject: 'user-1',
    });
  });

  it('rejects an alg "none" token with 401', async () => {
    await expectUnauthenticated(plugin(), bearer(unsignedToken({ ...GOOD_CLAIMS, sub: 'admin', exp: now() + 60 })));
  });

  it('rejects an HS256 token whose secret is the RSA public key (PEM or JWK bytes) with 401, without fetching keys', async () => {
    const pem = new TextEncoder().encode(await exportSPKI(key.publicKey));
    const jwkBytes = new TextEncoder().encode(JSON.stringify(await exportJWK(key.publicKey)));
    for (const secret of [pem, jwkBytes]) {
      const forged = await token(secret, { alg: 'HS256', kid: key.kid, claims: GOOD_CLAIMS });
      await expectUnauthenticated(plugin(), bearer(forged));
    }
    expect(server.fetches).toBe(0);
  });

  it('rejects a token signed by another key under a published kid', async () => {
    const forged = await token(otherKey, { kid: key.kid, claims: GOOD_CLAIMS });
    await expectUnauthenticated(plugin(), bearer(forged));
  });

  it('accepts an expired token within clockToleranceSec (default 30 s) and rejects it beyond', async () => {
    const auth = plugin();
    const within = await token(key, { claims: { ...GOOD_CLAIMS, exp: now() - 20 } });
    await expect(authenticate(auth, bearer(within))).resolves.toMatchObject({ subject: 'user-1' });
    await expectUnauthenticated(
      auth,
      bearer(await token(key, { claims: { ...GOOD_CLAIMS, exp: now() - 31 } })),
      EXPIRED_CHALLENGE,
    );
    await expectUnauthenticated(plugin({ clockToleranceSec: 0 }), bearer(within), EXPIRED_CHALLENGE);
  });

  it('rejects a token without exp with 401', async () => {
    await expectUnauthenticated(plugin(), bearer(await token(key, { claims: { ...GOOD_CLAIMS, exp: undefined } })));
  });

  it('rejects a token that is not valid yet (nbf beyond the tolerance)', async () => {
    await expectUnauthenticated(plugin(), bearer(await token(key, { claims: { ...GOOD_CLAIMS, nbf: now() + 120 } })));
  });

  it('rejects a wrong or missing aud / iss with 401 (never 500)', async () => {
    const auth = plugin();
    for (const claims of [
      { iss: ISSUER, aud: 'another-api' },
      { iss: 'https://evil.example', aud: AUDIENCE },
      { aud: AUDIENCE },
      { iss: ISSUER },
    ]) {
      await expectUnauthenticated(auth, bearer(await token(key, { claims })));
    }
  });

  it('accepts any configured issuer or audience from a list', async () => {
    const auth = plugin({ issuer: ['https://a.example', ISSUER], audience: ['x', AUDIENCE] });
    await expect(authenticate(auth, bearer(await token(key, { claims: GOOD_CLAIMS })))).resolves.toMatchObject({
      subject: 'user-1',
    });
  });

  it('rejects 100 tokens with random kids with 401 and fetches the JWKS at most once per cooldown', async () => {
    const auth = plugin();
    const forged = await Promise.all(
      Array.from({ length: 100 }, () => token(otherKey, { kid: randomUUID(), claims: GOOD_CLAIMS })),
    );
    const outcomes = await Promise.all(forged.map((jwt) => rejection(auth, bearer(jwt))));
    expect(outcomes.every((outcome) => outcome.status === 401 && outcome.code === 'UNAUTHENTICATED')).toBe(true);
    for (const jwt of forged.slice(0, 20)) await expectUnauthenticated(auth, bearer(jwt));
    expect(server.fetches).toBe(1);
    // The key it did fetch still works, from the cache.
    await expect(authenticate(auth, bearer(await token(key, { claims: GOOD_CLAIMS })))).resolves.toBeDefined();
    expect(server.fetches).toBe(1);
  });

  it('accepts a rotated-in kid after one refetch (once the cooldown has passed)', async () => {
    const auth = plugin({ jwksCooldownMs: 200 });
    await authenticate(auth, bearer(await token(key, { claims: GOOD_CLAIMS })));
    expect(server.fetches).toBe(1);

    server.setKeys(jwks(otherKey).keys);
    const rotated = await token(otherKey, { claims: GOOD_CLAIMS });
    await expectUnauthenticated(auth, bearer(rotated)); // within the cooldown: no refetch
    expect(server.fetches).toBe(1);

    passTime(199);
    await expectUnauthenticated(auth, bearer(rotated)); // 1 ms before the cooldown's end: still none
    expect(server.fetches).toBe(1);
    passTime(1);
    await expect(authenticate(auth, bearer(rotated))).resolves.toMatchObject({ subject: 'user-1' });
    expect(server.fetches).toBe(2);
    // The retired key is gone from the new set.
    await expectUnauthenticated(auth, bearer(await token(key, { claims: GOOD_CLAIMS })));
    expect(server.fetches).toBe(2);
  });

  it('fails closed within jwksTimeoutMs when the JWKS endpoint is slow', async () => {
    server.setDelay(5_000);
    const auth = plugin({ jwksTimeoutMs: 300 });
    const started = performance.now();
    await expectUnauthenticated(auth, bearer(await token(key, { claims: GOOD_CLAIMS })));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('keeps accepting cached keys while the endpoint is slow, and rejects unknown kids within the timeout', async () => {
    const auth = plugin({ jwksTimeoutMs: 1_000, jwksCooldownMs: 100 });
    const known = await token(key, { claims: GOOD_CLAIMS });
    await authenticate(auth, bearer(known));
    server.setDelay(5_000);
    passTime(100);

    const started = performance.now();
    let unknownSettled = false;
    const unknown = rejection(auth, bearer(await token(otherKey, { claims: GOOD_CLAIMS }))).finally(() => {
      unknownSettled = true;
    });
    await expect(authenticate(auth, bearer(known))).resolves.toMatchObject({ subject: 'user-1' });
    // The cached key answered while the refetch for the unknown kid still hung: it did not wait for it.
    expect(unknownSettled).toBe(false);
    expect(await unknown).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(performance.now() - started).toBeLessThan(4_000); // the timeout, not the 5 s delay
    expect(server.fetches).toBe(2);
  });

  it('fails closed when the JWKS endpoint is down, keeps cached keys, and does not retry before the cooldown', async () => {
    const auth = plugin({ jwksCooldownMs: 500 });
    const known = await token(key, { claims: GOOD_CLAIMS });
    const unknownKids = await Promise.all(
      Array.from({ length: 21 }, () => token(otherKey, { kid: randomUUID(), claims: GOOD_CLAIMS })),
    );
    await authenticate(auth, bearer(known));
    server.setDown(true);
    passTime(500);

    await expectUnauthenticated(auth, bearer(unknownKids[0] as string));
    expect(server.fetches).toBe(2);
    // Within the cooldown that failed fetch started: no more fetches, cached keys still work.
    await Promise.all(unknownKids.slice(1).map((jwt) => expectUnauthenticated(auth, bearer(jwt))));
    await expect(authenticate(auth, bearer(known))).resolves.toMatchObject({ subject: 'user-1' });
    expect(server.fetches).toBe(2);

    server.setDown(false);
    server.setKeys(jwks(key, otherKey).keys);
    passTime(499);
    await expectUnauthenticated(auth, bearer(await token(otherKey, { claims: GOOD_CLAIMS })));
    expect(server.fetches).toBe(2); // still within the failed fetch's cooldown
    passTime(1);
    await expect(authenticate(auth, bearer(await token(otherKey, { claims: GOOD_CLAIMS })))).resolves.toBeDefined();
    expect(server.fetches).toBe(3);
  });

  it('answers 401 quickly when nothing listens at the JWKS URL', async () => {
    const auth = plugin({ jwksUrl: await closedPortUrl() });
    const started = performance.now();
    await expectUnauthenticated(auth, bearer(await token(key, { claims: GOOD_CLAIMS })));
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('answers 401 when the JWKS endpoint serves something that is not a key set', async () => {
    const html = await startTestHttpServer((_request, response) => response.end('<html>login</html>'));
    try {
      await expectUnauthenticated(plugin({ jwksUrl: html.url }), bearer(await token(key, { claims: GOOD_CLAIMS })));
    } finally {
      await html.close();
    }
  });

  describe('unparseable or foreign credentials', () => {
    it('answers 401 (no error code) to another scheme: Basic, or a lone word', async () => {
      for (const authorization of ['Basic dXNlcjpwYXNz', 'garbage', 'Digest username="x"']) {
        const error = await rejection(plugin(), { authorization });
        expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'Authentication required' });
        expect(error.wwwAuthenticate).toBe('Bearer');
      }
    });

    it('answers 400 BAD_REQUEST to a Bearer header that does not hold exactly one token', async () => {
      for (const authorization of ['Bearer', 'Bearer   ', 'Bearer a b', 'Bearer a,b', 'Bearer tökén']) {
        const error = await rejection(plugin(), { authorization });
        expect(error).toMatchObject({
          status: 400,
          code: 'BAD_REQUEST',
          message: 'Malformed authorization header: expected "Bearer <token>"',
        });
        expect(error.wwwAuthenticate).toBe('Bearer error="invalid_request"');
      }
    });

    it('answers 401 invalid_token to a well-formed bearer value that is not a JWT', async () => {
      for (const value of ['garbage', 'a.b.c', 'eyJhbGciOiJSUzI1NiJ9.e30.', '...']) {
        await expectUnauthenticated(plugin(), bearer(value));
      }
    });

    it('answers 401 "Authentication required" without any credential', async () => {
      for (const headers of [{}, { authorization: '' }]) {
        const error = await rejection(plugin(), headers);
        expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'Authentication required' });
        expect(error.wwwAuthenticate).toBe('Bearer');
      }
    });
  });

  describe('optional mode (required: false)', () => {
    it('serves a request without a token as anonymous', async () => {
      const auth = plugin({ required: false });
      await expect(authenticate(auth, {})).resolves.toBeUndefined();
      await expect(authenticate(auth, { authorization: '' })).resolves.toBeUndefined();
    });

    it('still authenticates a valid token', async () => {
      const auth = plugin({ required: false });
      await expect(authenticate(auth, bearer(await token(key, { claims: GOOD_CLAIMS })))).resolves.toMatchObject({
        subject: 'user-1',
      });
    });

    it('still rejects a bad token (401), another scheme (401) and a malformed header (400)', async () => {
      const auth = plugin({ required: false });
      await expectUnauthenticated(
        auth,
        bearer(await token(key, { claims: { ...GOOD_CLAIMS, exp: now() - 60 } })),
        EXPIRED_CHALLENGE,
      );
      await expectUnauthenticated(auth, bearer(unsignedToken()));
      expect(await rejection(auth, { authorization: 'Basic eDp5' })).toMatchObject({ status: 401 });
      expect(await rejection(auth, { authorization: 'Bearer' })).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    });
  });

  it('never puts the token (or a part of it) in the error or the logs', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const auth = plugin({ logger });
    const tokens = [
      await token(key, { claims: { ...GOOD_CLAIMS, exp: now() - 3_600 } }),
      await token(key, { claims: { iss: ISSUER, aud: 'someone-else' } }),
      await token(otherKey, { kid: key.kid, claims: GOOD_CLAIMS }),
    ];
    for (const jwt of tokens) {
      const error = await rejection(auth, bearer(jwt));
      for (const part of [jwt, ...jwt.split('.')]) expect(error.serialized).not.toContain(part);
    }
    const log = lines.join('');
    expect(log).toContain('ERR_JWT_EXPIRED');
    expect(log).toContain('ERR_JWT_CLAIM_VALIDATION_FAILED');
    expect(log).toContain('ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
    for (const jwt of tokens) for (const part of jwt.split('.')) expect(log).not.toContain(part);
  });

  it('logs a failed JWKS fetch at warn, without the token', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (object: object, message: string) => lines.push(`debug ${message} ${JSON.stringify(object)}`),
      warn: (object: object, message: string) => lines.push(`warn ${message} ${JSON.stringify(object)}`),
    } as unknown as JwtAuthOptions['logger'];
    server.setDown(true);
    const jwt = await token(key, { claims: GOOD_CLAIMS });
    await expectUnauthenticated(plugin({ logger }), bearer(jwt));
    expect(lines.some((line) => line.startsWith('warn JWKS fetch failed') && line.includes('HTTP 503'))).toBe(true);
    expect(lines.join('\n')).not.toContain(jwt.split('.')[1]);
  });

  describe('token sources', () => {
    it('reads the token from a cookie when the header is absent; the header wins when both are sent', async () => {
      const auth = plugin({ cookieName: 'session' });
      const jwt = await token(key, { claims: { ...GOOD_CLAIMS, sub: 'from-cookie' } });
      await expect(authenticate(auth, { cookie: `theme=dark; session=${jwt}; x=1` })).resolves.toMatchObject({
        subject: 'from-cookie',
      });
      const headerJwt = await token(key, { claims: { ...GOOD_CLAIMS, sub: 'from-header' } });
      await expect(authenticate(auth, { cookie: `session=${jwt}`, ...bearer(headerJwt) })).resolves.toMatchObject({
        subject: 'from-header',
      });
      await expectUnauthenticated(auth, { cookie: 'session=not-a-jwt' });
      expect(await rejection(auth, { cookie: 'other=1' })).toMatchObject({
        status: 401,
        message: 'Authentication required',
      });
    });

    it('reads a bare token from a custom header with scheme ""', async () => {
      const auth = plugin({ header: 'X-Auth-Token', scheme: '' });
      const jwt = await token(key, { claims: GOOD_CLAIMS });
      await expect(authenticate(auth, { 'x-auth-token': jwt })).resolves.toMatchObject({ subject: 'user-1' });
      expect(await rejection(auth, { 'x-auth-token': `Bearer ${jwt}` })).toMatchObject({ status: 400 });
      expect(await rejection(auth, bearer(jwt))).toMatchObject({ status: 401, message: 'Authentication required' });
    });
  });

  describe('subgraph headers', () => {
    const claimHeaders = { sub: 'x-user-id', scope: 'x-user-scopes', roles: 'x-user-roles', tier: 'X-Tier' };

    it('sets claim headers from the verified claims and replaces spoofed ones', async () => {
      const auth = plugin({ claimHeaders });
      const jwt = await token(key, {
        claims: { ...GOOD_CLAIMS, sub: 'user-42', scope: 'read write', roles: ['a', 'b'], tier: 3 },
      });
      const identity = await authenticate(auth, bearer(jwt));
      const outgoing = subgraphHeaders(auth, gatewayContext(identity), {
        'x-user-id': 'admin',
        'x-user-scopes': 'everything',
        authorization: `Bearer ${jwt}`,
        'x-other': 'kept',
      });
      expect(outgoing).toEqual({
        'content-type': 'application/json',
        'x-other': 'kept',
        'x-user-id': 'user-42',
        'x-user-scopes': 'read write',
        'x-user-roles': 'a b',
        'x-tier': '3',
      });
    });

    it('removes spoofed claim headers for an anonymous caller and skips claims it cannot send', async () => {
      const auth = plugin({ claimHeaders, required: false });
      const anonymous = subgraphHeaders(auth, gatewayContext({}), { 'x-user-id': 'admin', 'x-user-roles': 'root' });
      expect(anonymous).toEqual({ 'content-type': 'application/json' });

      const jwt = await token(key, {
        claims: { ...GOOD_CLAIMS, sub: 'evil\r\nx-admin: 1', roles: { nested: true }, scope: [['x']] },
      });
      const identity = await authenticate(auth, bearer(jwt));
      expect(subgraphHeaders(auth, gatewayContext(identity), { 'x-user-id': 'admin' })).toEqual({
        'content-type': 'application/json',
      });
    });

    it('forwards the token only with forwardToken', async () => {
      const jwt = await token(key, { claims: GOOD_CLAIMS });
      const forwarding = plugin({ forwardToken: true, claimHeaders: { sub: 'x-user-id' } });
      const identity = await authenticate(forwarding, bearer(jwt));
      expect(identity?.token).toBe(jwt);
      expect(subgraphHeaders(forwarding, gatewayContext(identity), { authorization: 'Bearer spoofed' })).toEqual({
        'content-type': 'application/json',
        authorization: `Bearer ${jwt}`,
        'x-user-id': 'user-1',
      });
      // An anonymous caller's client-sent authorization is not passed on either.
      const optional = plugin({ forwardToken: true, required: false });
      expect(subgraphHeaders(optional, gatewayContext({}), { authorization: 'Basic eDp5' })).toEqual({
        'content-type': 'application/json',
      });
    });

    it('removes a custom token header from subgraph requests', async () => {
      const auth = plugin({ header: 'x-auth-token', scheme: '' });
      expect(subgraphHeaders(auth, gatewayContext({}), { 'x-auth-token': 'abc', authorization: 'x' })).toEqual({
        'content-type': 'application/json',
      });
    });
  });
});

describe('jwtAuth with a shared secret', () => {
  const secret = 'a-shared-secret-of-at-least-32-bytes!';
  const secretBytes = new TextEncoder().encode(secret);
  const plugin = (options: Partial<JwtAuthOptions> = {}) => jwtAuth({ secret, algorithms: ['HS256'], ...options });

  it('accepts an HS256 token signed with the secret', async () => {
    await expect(authenticate(plugin(), bearer(await token(secretBytes)))).resolves.toMatchObject({
      subject: 'user-1',
    });
  });

  it('rejects a token signed with another secret, another algorithm, or none', async () => {
    const auth = plugin();
    await expectUnauthenticated(auth, bearer(await token(new TextEncoder().encode(`${secret}-but-different`))));
    await expectUnauthenticated(auth, bearer(await token(secretBytes, { alg: 'HS512' })));
    await expectUnauthenticated(auth, bearer(await token(key)));
    await expectUnauthenticated(auth, bearer(unsignedToken()));
  });

  it('accepts a Uint8Array secret', async () => {
    const bytes = new Uint8Array(randomBytes(64));
    const auth = jwtAuth({ secret: bytes, algorithms: ['HS512'] });
    await expect(authenticate(auth, bearer(await token(bytes, { alg: 'HS512' })))).resolves.toMatchObject({
      subject: 'user-1',
    });
  });
});

describe('jwtAuth with a JWKS file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'jwt-auth-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the key set once, at factory time', async () => {
    const path = join(dir, 'jwks.json');
    writeFileSync(path, JSON.stringify(jwks(key)));
    const auth = jwtAuth({ jwksFile: path, algorithms: ['RS256'] });
    rmSync(path);
    await expect(authenticate(auth, bearer(await token(key)))).resolves.toMatchObject({ subject: 'user-1' });
    await expectUnauthenticated(auth, bearer(await token(otherKey)));
  });

  it('refuses a missing file, a file that is not a key set, and private keys', async () => {
    const notJwks = join(dir, 'not-jwks.json');
    writeFileSync(notJwks, JSON.stringify({ hello: 'world' }));
    const privateFile = join(dir, 'private.json');
    const privateJwk = await exportJWK(key.privateKey);
    writeFileSync(privateFile, JSON.stringify({ keys: [privateJwk] }));
    expect(await exportPKCS8(key.privateKey)).toContain('PRIVATE KEY');

    for (const [path, message] of [
      [join(dir, 'missing.json'), /cannot read a JSON file/],
      [notJwks, /not a JSON Web Key Set/],
      [privateFile, /private or secret key material/],
    ] as const) {
      const error = optionsError('jwt', () => jwtAuth({ jwksFile: path, algorithms: ['RS256'] }));
      expect(error.issues).toEqual([{ field: 'jwksFile', message: expect.stringMatching(message) }]);
    }
  });
});

describe('jwtAuth options', () => {
  const jwksUrl = 'https://issuer.example/.well-known/jwks.json';

  it('names every bad option at once', () => {
    const error = optionsError('jwt', () =>
      jwtAuth({
        jwksUrl,
        algorithms: ['RS256', 'none', 'HS256', 'XX999'] as never,
        jwksTimeoutMs: 0,
        jwksCooldownMs: -1,
        jwksCacheMaxAgeMs: 1.5,
        issuer: '',
        audience: [],
        clockToleranceSec: -1,
        required: 'yes' as never,
        header: 'bad header',
        scheme: 'Bearer token',
        cookieName: 'a;b',
        claimHeaders: { sub: 'host', scope: 'authorization', email: 'x-user', name: 'X-User' },
        forwardToken: 1 as never,
        algorithm: 'RS256',
      } as JwtAuthOptions),
    );
    expect(issueFields(error)).toEqual(
      [
        'algorithm',
        'algorithms',
        'jwksTimeoutMs',
        'jwksCooldownMs',
        'jwksCacheMaxAgeMs',
        'issuer',
        'audience',
        'clockToleranceSec',
        'required',
        'header',
        'scheme',
        'cookieName',
        'claimHeaders.sub',
        'claimHeaders.scope',
        'claimHeaders.name',
        'forwardToken',
      ].sort(),
    );
    const algorithms = error.issues.find((issue) => issue.field === 'algorithms')?.message;
    expect(algorithms).toContain('"none" (unsigned tokens) is never allowed');
    expect(algorithms).toContain('HS256 needs a shared secret, not jwksUrl');
    expect(algorithms).toContain('"XX999" is not a supported algorithm');
  });

  it('requires algorithms and exactly one key source', () => {
    expect(issueFields(optionsError('jwt', () => jwtAuth({} as JwtAuthOptions)))).toEqual([
      'algorithms',
      'jwksUrl | jwksFile | secret',
    ]);
    const both = optionsError('jwt', () => jwtAuth({ jwksUrl, secret: 'x'.repeat(32), algorithms: ['RS256'] }));
    expect(both.issues).toEqual([
      { field: 'jwksUrl | jwksFile | secret', message: 'set exactly one key source, not jwksUrl and secret' },
    ]);
    expect(issueFields(optionsError('jwt', () => jwtAuth({ jwksUrl, algorithms: [] })))).toEqual(['algorithms']);
    expect(issueFields(optionsError('jwt', () => jwtAuth(undefined as never)))).toEqual(['options']);
  });

  it('keeps HS* for secrets and public-key algorithms for JWKS', () => {
    const error = optionsError('jwt', () => jwtAuth({ secret: 'x'.repeat(64), algorithms: ['HS512', 'RS256'] }));
    expect(error.issues).toEqual([
      {
        field: 'algorithms',
        message: expect.stringContaining('RS256 needs public keys (jwksUrl or jwksFile), not secret'),
      },
    ]);
  });

  it('checks the secret length against the strongest HS algorithm allowed', () => {
    expect(optionsError('jwt', () => jwtAuth({ secret: 'x'.repeat(31), algorithms: ['HS256'] })).issues).toEqual([
      { field: 'secret', message: 'must be at least 32 bytes for HS256 (got 31)' },
    ]);
    expect(
      optionsError('jwt', () => jwtAuth({ secret: 'x'.repeat(40), algorithms: ['HS256', 'HS512'] })).issues,
    ).toEqual([{ field: 'secret', message: 'must be at least 64 bytes for HS256, HS512 (got 40)' }]);
    expect(() => jwtAuth({ secret: 'x'.repeat(32), algorithms: ['HS256'] })).not.toThrow();
  });

  it('wants https for a remote JWKS, except on loopback or when allowed', () => {
    const error = optionsError('jwt', () =>
      jwtAuth({ jwksUrl: 'http://idp.internal/jwks.json', algorithms: ['RS256'] }),
    );
    expect(error.issues).toEqual([{ field: 'jwksUrl', message: expect.stringContaining('must be https') }]);
    expect(issueFields(optionsError('jwt', () => jwtAuth({ jwksUrl: 'not a url', algorithms: ['RS256'] })))).toEqual([
      'jwksUrl',
    ]);
    expect(() => jwtAuth({ jwksUrl: 'http://127.0.0.1:1/jwks.json', algorithms: ['RS256'] })).not.toThrow();
    expect(() => jwtAuth({ jwksUrl: 'http://localhost:1/jwks.json', algorithms: ['ES256'] })).not.toThrow();
    expect(() =>
      jwtAuth({ jwksUrl: 'http://idp.internal/jwks.json', algorithms: ['RS256'], allowInsecureJwksUrl: true }),
    ).not.toThrow();
  });

  it('is named "jwt" and has the authenticate and subgraph hooks', () => {
    const auth = jwtAuth({ jwksUrl, algorithms: ['RS256'] });
    expect(auth.name).toBe('jwt');
    expect(typeof auth.authenticate).toBe('function');
    expect(typeof auth.onSubgraphRequest).toBe('function');
  });
});
