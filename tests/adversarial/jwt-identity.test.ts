import { postGraphQL, subgraphUrlEnv } from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

// Class: who counts as signed in. Any verified JWT is a signed-in caller (as Apollo Router
// decides @authenticated), whatever its `sub`: a machine-to-machine token often has none, and
// an empty `sub` must not be told apart from a missing one. A `sub` identifies a caller only
// when it is a non-empty string (rate-limit and subscription keys are never `sub:`).

const SECRET = 'jwt-identity-secret-long-enough-0123456789';
const ADDRESS = '{ user(id: "user-2") { id address } }';
const subgraphs = subgraphsForFile();

async function bearer(claims: Record<string, unknown>): Promise<Record<string, string>> {
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  return { authorization: `Bearer ${token}` };
}

describe('@authenticated accepts any verified token', () => {
  const gateway = gatewayForBlock('fastify', () => ({
    ...subgraphUrlEnv(subgraphs()),
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
  }));

  it.each([
    ['a token without sub (machine to machine)', { azp: 'billing-service' }],
    ['a token with an empty sub', { sub: '' }],
    ['a token with a sub', { sub: 'user-2' }],
  ])('%s reads the field', async (_name, claims) => {
    const result = await postGraphQL(gateway().url, { query: ADDRESS }, await bearer(claims));
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    expect((result.body.data?.user as { address?: unknown })?.address).toEqual(expect.any(String));
  });

  it('no token, or a forged one, still does not', async () => {
    const anonymous = await postGraphQL(gateway().url, { query: ADDRESS });
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED_FIELD_OR_TYPE');
    const forged = await postGraphQL(gateway().url, { query: ADDRESS }, { authorization: 'Bearer a.b.c' });
    expect(forged.status).toBe(401);
  });
});
