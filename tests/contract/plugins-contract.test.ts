import { MOUNTS, postGraphQL, subgraphUrlEnv } from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * The plugins, configured by environment alone, over real HTTP on every mount:
 * the `full` profile (header rules, client awareness, JWT, rate limit, response
 * headers) and `rate-limit+api-key` (seed §D's stack). Edge cases of each plugin are
 * unit-tested beside it; this proves they behave the same on all four mounts.
 */
const SECRET = 'contract-test-secret-that-is-long-enough-0123456789';
const ISSUER = 'https://issuer.test';
const AUDIENCE = 'gateway';
const API_KEY = 'bench-key-0123456789';

const subgraphs = subgraphsForFile();

async function token(subject: string, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
}

const bearer = async (subject: string) => ({ authorization: `Bearer ${await token(subject)}` });

describe.each(MOUNTS)('plugins on %s', (mount) => {
  describe('profile full (JWT required)', () => {
    const gateway = gatewayForBlock(mount, () => ({
      ...subgraphUrlEnv(subgraphs()),
      GATEWAY_PLUGINS: 'full',
      JWT_SECRET: SECRET,
      JWT_ALGORITHMS: 'HS256',
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
      JWT_CLAIM_HEADERS: 'sub:x-user-id',
      // Propagates every x- header: the JWT plugin must still have the last word on x-user-id.
      GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ propagate: { matching: '^x-' } }] }),
      GATEWAY_RESPONSE_HEADERS: Array.from({ length: 10 }, (_, i) => `x-trace-${i + 1}:{uuid}`).join(','),
      RATE_LIMIT_MAX: '5',
      RATE_LIMIT_KEY: 'sub',
      MAX_DEPTH: '6',
    }));

    it('answers 401 UNAUTHENTICATED without a token', async () => {
      const result = await postGraphQL(gateway().url, { query: '{ me { id } }' });
      expect(result.status).toBe(401);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(result.body.data).toBeUndefined();
    });

    it('answers 401 for a token signed with another secret, without echoing it', async () => {
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-1')
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode('another-secret-of-sufficient-length-0123456789'));
      const result = await postGraphQL(
        gateway().url,
        { query: '{ me { id } }' },
        { authorization: `Bearer ${forged}` },
      );
      expect(result.status).toBe(401);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(result.text).not.toContain(forged);
    });

    it('forwards the verified subject to subgraphs, so `me` is the caller', async () => {
      const result = await postGraphQL(gateway().url, { query: '{ me { id } }' }, await bearer('user-5'));
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ data: { me: { id: 'user-5' } } });
    });

    it('ignores an x-user-id sent by the client, even with a rule that propagates x- headers', async () => {
      const result = await postGraphQL(
        gateway().url,
        { query: '{ me { id } }' },
        { ...(await bearer('user-6')), 'x-user-id': 'user-7' },
      );
      expect(result.body).toEqual({ data: { me: { id: 'user-6' } } });
    });

    it('lets an authenticated caller add a review as themself', async () => {
      const result = await postGraphQL(
        gateway().url,
        {
          query:
            'mutation Add($productId: ID!, $rating: Int!, $comment: String!) { addReview(productId: $productId, rating: $rating, comment: $comment) { rating comment author { id } product { id } } }',
          variables: { productId: 'product-3', rating: 4, comment: `From the ${mount} contract` },
        },
        await bearer('user-8'),
      );
      expect(result.body).toEqual({
        data: {
          addReview: {
            rating: 4,
            comment: `From the ${mount} contract`,
            author: { id: 'user-8' },
            product: { id: 'product-3' },
          },
        },
      });
    });

    it('adds ten fresh random UUID headers to each response', async () => {
      const headers = await bearer('user-11');
      const [first, second] = await Promise.all([
        postGraphQL(gateway().url, { query: '{ __typename }' }, headers),
        postGraphQL(gateway().url, { query: '{ __typename }' }, headers),
      ]);
      const uuids = (result: typeof first) =>
        Array.from({ length: 10 }, (_, i) => result.headers.get(`x-trace-${i + 1}`));
      for (const value of [...uuids(first), ...uuids(second)]) expect(value).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set([...uuids(first), ...uuids(second)]).size).toBe(20);
    });

    it('rejects a query deeper than MAX_DEPTH with 400 before any subgraph call', async () => {
      const result = await postGraphQL(
        gateway().url,
        { query: '{ me { orders { product { reviews { author { reviews { id } } } } } } }' },
        await bearer('user-12'),
      );
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('MAX_DEPTH_LIMIT');
    });

    it('rate-limits per subject: 5 pass, the 6th gets 429 with Retry-After', async () => {
      const headers = await bearer('user-13');
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      for (let i = 0; i < 6; i++) {
        last = await postGraphQL(gateway().url, { query: '{ __typename }' }, headers);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(last?.body.errors?.[0]?.extensions?.code).toBe('REQUEST_RATE_LIMITED');
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another subject has its own bucket.
      const other = await postGraphQL(gateway().url, { query: '{ __typename }' }, await bearer('user-14'));
      expect(other.status).toBe(200);
      expect(other.headers.get('ratelimit-limit')).toBe('5');
    });

    it('never writes a token to the logs', async () => {
      const secretToken = await token('user-15');
      await postGraphQL(gateway().url, { query: '{ me { id } }' }, { authorization: `Bearer ${secretToken}` });
      await postGraphQL(gateway().url, { query: '{ me { id } }' }, { authorization: `Bearer ${secretToken}x` });
      expect(gateway().output()).not.toContain(secretToken);
    });
  });

  describe('profile rate-limit+api-key', () => {
    const gateway = gatewayForBlock(mount, () => ({
      ...subgraphUrlEnv(subgraphs()),
      GATEWAY_PLUGINS: 'rate-limit+api-key',
      GATEWAY_API_KEYS: `bench:${API_KEY}`,
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_KEY: 'api-key',
    }));

    it('answers 401 without a key or with a wrong one', async () => {
      const missing = await postGraphQL(gateway().url, { query: '{ __typename }' });
      const wrong = await postGraphQL(gateway().url, { query: '{ __typename }' }, { 'x-api-key': `${API_KEY}x` });
      expect([missing.status, wrong.status]).toEqual([401, 401]);
      expect(wrong.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(wrong.text).not.toContain(API_KEY);
    });

    it('serves a valid key until its consumer reaches the limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const result = await postGraphQL(
          gateway().url,
          { query: GET_USER, variables: { id: 'user-5' } },
          { 'x-api-key': API_KEY },
        );
        statuses.push(result.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(gateway().output()).not.toContain(API_KEY);
      // The line is written after the response is sent: wait for it rather than race it.
      await expect
        .poll(
          () =>
            gateway()
              .logLines()
              .filter((line) => line.msg === 'request completed' && line.status === 200)[2],
        )
        .toMatchObject({ consumer: 'bench', operationName: 'GetUser' });
    });
  });

  describe('rate limit charged by estimated cost, one global bucket', () => {
    const gateway = gatewayForBlock(mount, () => ({
      ...subgraphUrlEnv(subgraphs()),
      GATEWAY_PLUGINS: 'rate-limit',
      RATE_LIMIT_MAX: '30',
      RATE_LIMIT_KEY: 'global',
      RATE_LIMIT_COST: 'estimated',
    }));

    it('charges what the operation costs, whatever it is named: renaming it is no bypass', async () => {
      // user 1 + 5 orders × (order 1 + product 1) = 11 per request, under any name.
      const names = ['Health', 'Health2', 'IntrospectionQuery'];
      const results = [];
      for (const name of names) {
        const query = `query ${name}($id: ID!) { user(id: $id) { id orders { id product { id } } } }`;
        results.push(await postGraphQL(gateway().url, { query, variables: { id: 'user-5' } }));
      }
      expect(results.map((result) => result.status)).toEqual([200, 200, 429]);
      expect(results.map((result) => result.headers.get('ratelimit-remaining'))).toEqual(['19', '8', '0']);
      expect(results[2]?.body.errors?.[0]?.extensions?.code).toBe('REQUEST_RATE_LIMITED');
    });
  });
});

const GET_USER = 'query GetUser($id: ID!) { user(id: $id) { id name } }';
