// The keys tokens are verified with, from the one key source set: an HS shared secret, a
// local JWKS file (read once, when the factory runs) or a remote JWKS (remote-jwks.ts).
// A source that cannot be used becomes an option issue.
import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';
import type { Logger, OptionIssues } from '../../plugin-sdk/index.js';
import type { KeySource } from './check-options.js';
import { HMAC_ALGORITHMS, type JwtAlgorithm, PLUGIN_NAME } from './options.js';
import { createRemoteKeyResolver } from './remote-jwks.js';

/** Resolves to the token's payload, or rejects (jose's error) when the token is not valid. */
export type TokenVerifier = (token: string) => Promise<JWTPayload>;

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** A verifier using the keys from `source`, or undefined (with an issue added) when they cannot be loaded. */
export function createVerifier(
  issues: OptionIssues,
  source: KeySource,
  verifyOptions: JWTVerifyOptions,
  logger: Pick<Logger, 'warn'> | undefined,
): TokenVerifier | undefined {
  if (source.kind === 'secret') {
    const secret = parseSecret(issues, source.secret, source.algorithms);
    return secret ? async (token) => (await jwtVerify(token, secret, verifyOptions)).payload : undefined;
  }
  const getKey =
    source.kind === 'jwksFile' ? loadJwksFile(issues, source.path) : remoteKeyResolver(issues, source, logger);
  return getKey ? async (token) => (await jwtVerify(token, getKey, verifyOptions)).payload : undefined;
}

function parseSecret(
  issues: OptionIssues,
  value: unknown,
  algorithms: readonly JwtAlgorithm[],
): Uint8Array | undefined {
  const bytes =
    typeof value === 'string' ? new TextEncoder().encode(value) : value instanceof Uint8Array ? value : undefined;
  if (!bytes) {
    issues.add('secret', 'must be a string or a Uint8Array');
    return undefined;
  }
  const minimum = Math.max(
    32,
    ...algorithms.map((alg) => (alg in HMAC_ALGORITHMS ? HMAC_ALGORITHMS[alg as keyof typeof HMAC_ALGORITHMS] : 0)),
  );
  if (bytes.byteLength < minimum) {
    issues.add(
      'secret',
      `must be at least ${minimum} bytes for ${algorithms.join(', ') || 'HS256'} (got ${bytes.byteLength})`,
    );
    return undefined;
  }
  return new Uint8Array(bytes);
}

function loadJwksFile(issues: OptionIssues, path: unknown): JWTVerifyGetKey | undefined {
  if (typeof path !== 'string' || path === '') {
    issues.add('jwksFile', 'must be a file path');
    return undefined;
  }
  let jwks: JSONWebKeySet;
  try {
    jwks = JSON.parse(readFileSync(path, 'utf8')) as JSONWebKeySet;
  } catch (error) {
    issues.add('jwksFile', `cannot read a JSON file at ${path}: ${errorMessage(error)}`);
    return undefined;
  }
  const keys: unknown = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    issues.add('jwksFile', `${path} is not a JSON Web Key Set with at least one key ({"keys":[...]})`);
    return undefined;
  }
  if (keys.some((key) => typeof key === 'object' && key !== null && ('d' in key || 'k' in key))) {
    issues.add('jwksFile', `${path} contains private or secret key material: publish public keys only`);
    return undefined;
  }
  try {
    return createLocalJWKSet(jwks);
  } catch (error) {
    issues.add('jwksFile', `${path} is not a valid JSON Web Key Set: ${errorMessage(error)}`);
    return undefined;
  }
}

function remoteKeyResolver(
  issues: OptionIssues,
  source: Extract<KeySource, { kind: 'jwksUrl' }>,
  logger: Pick<Logger, 'warn'> | undefined,
): JWTVerifyGetKey | undefined {
  const url = parseJwksUrl(issues, source.url, source.allowInsecure);
  if (!url) return undefined;
  const shownUrl = `${url.origin}${url.pathname}`;
  return createRemoteKeyResolver({
    url,
    timeoutMs: source.timeoutMs,
    cooldownMs: source.cooldownMs,
    cacheMaxAgeMs: source.cacheMaxAgeMs,
    onFetchError: (error) =>
      logger?.warn({ plugin: PLUGIN_NAME, jwksUrl: shownUrl, reason: errorMessage(error) }, 'JWKS fetch failed'),
  });
}

function parseJwksUrl(issues: OptionIssues, value: unknown, allowInsecure: boolean): URL | undefined {
  let url: URL;
  try {
    url = new URL(value instanceof URL ? value.href : String(value));
  } catch {
    issues.add('jwksUrl', 'must be an absolute URL');
    return undefined;
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && (loopback || allowInsecure))) return url;
  issues.add(
    'jwksUrl',
    url.protocol === 'http:'
      ? 'must be https (http is accepted on loopback hosts, or with allowInsecureJwksUrl)'
      : 'must be an http(s) URL',
  );
  return undefined;
}

/** The error's message, with the cause's code (ENOENT, ECONNREFUSED…) when it has one. */
function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? `${error.message} (${cause.code})` : error.message;
}
