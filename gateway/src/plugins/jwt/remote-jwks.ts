// A remote JWKS key resolver: jose's createRemoteJWKSet (cache, cooldown between refetches
// for unknown `kid`s, request timeout) plus what it leaves out. jose's cooldown starts only
// after a *successful* fetch, so while the endpoint is down every token with an unknown
// `kid` would trigger another fetch: here a failed fetch also starts a cooldown, during
// which keys still fresh in the cache keep working and nothing else is fetched.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type FetchImplementation,
  type JWTVerifyGetKey,
  type LocalJWKSet,
} from 'jose';
import type { StartupErrorCode } from '../../plugin-sdk/index.js';

/** A JWKS document larger than this is refused (a real one is a few KiB). */
export const MAX_JWKS_BYTES = 1024 * 1024;

export interface RemoteKeyResolverOptions {
  readonly url: URL;
  /** Each fetch is aborted after this. */
  readonly timeoutMs: number;
  /** Minimum time between fetches triggered by unknown `kid`s, and after a failed fetch. */
  readonly cooldownMs: number;
  /** Cached keys are refetched once older than this; if that fetch fails they stop working. */
  readonly cacheMaxAgeMs: number;
  /** Told about every failed fetch (the error never contains a token). */
  readonly onFetchError?: (error: unknown) => void;
}

/** Thrown instead of fetching while a failed fetch's cooldown runs and no fresh key matches. */
export class JwksUnavailableError extends Error {
  override name = 'JwksUnavailableError';
  readonly code: StartupErrorCode = 'ERR_JWKS_UNAVAILABLE';
}

class JwksFetchError extends Error {
  override name = 'JwksFetchError';
  readonly code: StartupErrorCode = 'ERR_JWKS_FETCH_FAILED';
}

export function createRemoteKeyResolver(options: RemoteKeyResolverOptions): JWTVerifyGetKey {
  let failedAt = Number.NEGATIVE_INFINITY;
  let keysDuringBackoff: LocalJWKSet | undefined;

  const fetchJwks: FetchImplementation = async (url, init) => {
    try {
      const response = await fetch(url, init);
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new JwksFetchError(`the JWKS endpoint answered HTTP ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_JWKS_BYTES) throw new JwksFetchError('the JWKS document is too large');
      // Streamed and stopped at the cap: a chunked body announces no length. jose's signal
      // (JWT_JWKS_TIMEOUT_MS) bounds the whole fetch, body included, so a slow drip ends too.
      const text = await readCapped(response.body, MAX_JWKS_BYTES);
      if (!looksLikeJwks(text)) throw new JwksFetchError('the JWKS endpoint did not answer a JSON Web Key Set');
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
    } catch (error) {
      failedAt = Date.now();
      const cached = remote.fresh ? remote.jwks() : undefined;
      keysDuringBackoff = cached ? createLocalJWKSet(cached) : undefined;
      options.onFetchError?.(error);
      throw error;
    }
  };

  const remote = createRemoteJWKSet(options.url, {
    timeoutDuration: options.timeoutMs,
    cooldownDuration: options.cooldownMs,
    cacheMaxAge: options.cacheMaxAgeMs,
    [customFetch]: fetchJwks,
  });

  return async (protectedHeader, token) => {
    if (Date.now() - failedAt < options.cooldownMs) {
      if (!keysDuringBackoff || !remote.fresh) throw new JwksUnavailableError('the JWKS endpoint is unavailable');
      return keysDuringBackoff(protectedHeader, token);
    }
    return remote(protectedHeader, token);
  };
}

function looksLikeJwks(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      Array.isArray((parsed as { keys?: unknown }).keys) &&
      (parsed as { keys: unknown[] }).keys.every((key) => typeof key === 'object' && key !== null)
    );
  } catch {
    return false;
  }
}

/** The body as text, reading at most `maxBytes`; past that the stream is cancelled and the fetch fails. */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new JwksFetchError('the JWKS document is too large');
    }
    text += decoder.decode(value, { stream: true });
  }
}
