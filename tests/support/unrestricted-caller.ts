import { SignJWT } from 'jose';

/**
 * A gateway env and a caller that nothing refuses, for property tests that need every
 * field the operation selects answered: limits far above what random operations reach,
 * and a JWT holding every right the supergraph's @authenticated / @requiresScopes /
 * @policy fields ask for.
 */
export const GENEROUS_LIMITS = {
  MAX_DEPTH: '50',
  MAX_ALIASES: '1000',
  MAX_ROOT_FIELDS: '1000',
  MAX_TOKENS: '100000',
  MAX_COST: '1000000000',
  MAX_RESPONSE_BYTES: '256mb',
} as const;

export const FULL_RIGHTS_ENV = {
  GATEWAY_PLUGINS: 'jwt',
  JWT_SECRET: 'estimate-test-secret-long-enough-0123456789',
  JWT_ALGORITHMS: 'HS256',
  AUTHORIZATION_POLICIES: 'support:role=support',
} as const;

/** The subject the full-rights token names (the gateway sends it to subgraphs as `x-user-id`). */
export const FULL_RIGHTS_SUBJECT = 'user-1';

/** Headers of a caller with every right, signed for a gateway started with FULL_RIGHTS_ENV. */
export async function fullRightsHeaders(): Promise<Record<string, string>> {
  const token = await new SignJWT({ scope: 'orders:read audit:read', role: 'support' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(FULL_RIGHTS_SUBJECT)
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(FULL_RIGHTS_ENV.JWT_SECRET));
  return { authorization: `Bearer ${token}` };
}
