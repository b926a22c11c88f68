import { randomUUID } from 'node:crypto';
import { base64url, type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  /** The public JWK as a JWKS endpoint publishes it. */
  readonly jwk: JWK;
}

export async function signingKey(kid: string = randomUUID(), alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, privateKey, publicKey, jwk };
}

export function jwks(...keys: readonly SigningKey[]): { keys: JWK[] } {
  return { keys: keys.map((key) => key.jwk) };
}

const now = () => Math.floor(Date.now() / 1000);

export interface TokenOptions {
  /** Claims; `exp` defaults to now + 5 min. Pass `exp: undefined` to leave it out. */
  readonly claims?: JWTPayload;
  /** Header `kid`; defaults to the key's. */
  readonly kid?: string;
  readonly alg?: string;
}

/** A token signed with `key` (an RSA key pair, or HMAC secret bytes). */
export async function token(key: SigningKey | Uint8Array, options: TokenOptions = {}): Promise<string> {
  const claims: JWTPayload = { sub: 'user-1', exp: now() + 300, ...options.claims };
  if ('exp' in (options.claims ?? {}) && options.claims?.exp === undefined) delete claims.exp;
  const isSecret = key instanceof Uint8Array;
  const alg = options.alg ?? (isSecret ? 'HS256' : 'RS256');
  const kid = options.kid ?? (isSecret ? undefined : key.kid);
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: 'JWT', ...(kid ? { kid } : {}) })
    .sign(isSecret ? key : key.privateKey);
}

/** An unsigned token: `{"alg":"none"}`, the claims, and an empty signature. */
export function unsignedToken(claims: JWTPayload = { sub: 'admin', exp: now() + 300 }): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

export { now };
