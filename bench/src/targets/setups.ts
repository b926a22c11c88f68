import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { catalogueWorkload, type SignedInUser, signedInUserIds } from '../load/catalogue.js';
import {
  accessSetups,
  cacheSetups,
  dedupSetups,
  defaultsSetups,
  headerSetups,
  observabilitySetups,
  type SetupCredentials,
  soakSetups,
} from './setup-rows.js';
import type { Refusal, Setups } from './setup-types.js';
import { sheddingSetups } from './shedding-setups.js';

export { METRICS_PATH, STATIC_HEADER } from './setup-rows.js';
export type { Refusal, Setup, SetupContext, SetupKey, Setups } from './setup-types.js';

/** A token for `subject` as the JWT setups send it: HS256, the bench's client claims, 12 hours. */
function sign(subject: string, secret: string): Promise<string> {
  return new SignJWT({ client_name: 'bench', client_version: '1.0.0' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('12h')
    .sign(new TextEncoder().encode(secret));
}

/** Every setup, with fresh credentials: a random HS256 secret, a token signed with it, an API key. */
export async function createSetups(): Promise<Setups> {
  const credentials = await setupCredentials();
  return {
    ...defaultsSetups(),
    ...headerSetups(),
    ...accessSetups(credentials),
    ...observabilitySetups(),
    ...dedupSetups(),
    ...cacheSetups(credentials),
    ...soakSetups(credentials),
    ...sheddingSetups(credentials.apiKey),
  };
}

/** A random HS256 secret, a token signed with it, a forged one, an API key, and §G's signed-in users. */
async function setupCredentials(): Promise<SetupCredentials> {
  const secret = randomBytes(32).toString('hex');
  const apiKey = randomBytes(16).toString('hex');
  const token = await sign('user-1', secret);
  // Same claims, another secret: a forged token the JWT setups must refuse.
  const forged = await new SignJWT({ client_name: 'bench' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-1')
    .setExpirationTime('12h')
    .sign(new TextEncoder().encode(randomBytes(32).toString('hex')));
  const jwtEnv = { JWT_SECRET: secret, JWT_ALGORITHMS: 'HS256' };
  // §G: signed-in users of the catalogue, each with a token signed with the same secret.
  const signedIn = await Promise.all(
    signedInUserIds().map(
      async (userId): Promise<SignedInUser> => ({
        userId,
        authorization: `Bearer ${await sign(userId, secret)}`,
      }),
    ),
  );
  const catalogue = catalogueWorkload(signedIn);
  const bearer = { authorization: `Bearer ${token}` };
  const noApiKey: Refusal = { what: 'no API key', headers: { authorization: `Bearer ${token}` }, status: 401 };
  const forgedToken = (headers: Record<string, string>): Refusal => ({
    what: 'a token signed with another secret',
    headers: { ...headers, authorization: `Bearer ${forged}` },
    status: 401,
  });
  return { apiKey, jwtEnv, bearer, noApiKey, forgedToken, catalogue };
}
