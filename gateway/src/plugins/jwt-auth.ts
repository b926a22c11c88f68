// JWT authentication at the edge: the gateway verifies the caller's token once (with jose),
// then tells subgraphs who the caller is through headers they can trust, because the
// gateway deletes any client-sent copy first. Keys come from a JWKS (remote or file) or an
// HS shared secret; every failure is a 401 (or a 400 for a header that does not parse),
// never a 500, and the token never appears in an error message or a log line.
import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';
import { ClientErrorCode } from '../error-registry.js';
import type { Logger } from '../logger.js';
import { readCredential, type TokenSource } from './auth/bearer.js';
import { claimHeaderValue } from './auth/header-values.js';
import { JWT_DEFAULTS } from './auth/jwt-defaults.js';
import { createRemoteKeyResolver } from './auth/remote-jwks.js';
import { httpError } from './http-error.js';
import {
  asOptionsObject,
  checkKnownKeys,
  headerName,
  OptionIssues,
  optionalBoolean,
  optionalDuration,
  optionalNonEmptyString,
} from './options.js';
import type { GatewayPlugin, Identity } from './types.js';

const PLUGIN = 'jwt';

/** HMAC algorithms: only with `secret`. The value is the minimum secret length in bytes (RFC 7518 §3.2). */
const HMAC_ALGORITHMS = { HS256: 32, HS384: 48, HS512: 64 } as const;
/** Public-key algorithms Node 20's WebCrypto verifies: only with `jwksUrl` / `jwksFile`. */
const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

export type JwtAlgorithm = keyof typeof HMAC_ALGORITHMS | (typeof ASYMMETRIC_ALGORITHMS)[number];

export { JWT_DEFAULTS };

export interface JwtAuthOptions {
  /**
   * The `alg` values a token may use (an explicit allowlist, checked before the signature).
   * Required. HS256/HS384/HS512 only with `secret`; RS*, PS*, ES*, EdDSA and Ed25519 only
   * with `jwksUrl` or `jwksFile`. `none` is never accepted.
   */
  algorithms: readonly JwtAlgorithm[];
  /**
   * Where the issuer publishes its JSON Web Key Set. Must be https, except on a loopback
   * host (or with `allowInsecureJwksUrl`). Set exactly one of `jwksUrl`, `jwksFile`, `secret`.
   */
  jwksUrl?: string | URL;
  /** A local JWKS JSON file (public keys only), read once when the factory runs. */
  jwksFile?: string;
  /**
   * HS* shared secret (a string is taken as UTF-8). At least 32 bytes, 48 with HS384 and
   * 64 with HS512 allowed.
   */
  secret?: string | Uint8Array;
  /** A JWKS fetch is aborted after this; the token is then rejected (401). Default: 5000 ms */
  jwksTimeoutMs?: number;
  /**
   * Minimum time between JWKS fetches caused by unknown `kid`s, and after a failed fetch
   * (so a flood of random `kid`s or an outage cannot turn into a flood of fetches).
   * Default: 30000 ms
   */
  jwksCooldownMs?: number;
  /**
   * Cached keys are refetched once older than this. If that fetch fails they stop working
   * (fail closed). Default: 600000 ms (10 min)
   */
  jwksCacheMaxAgeMs?: number;
  /** Accept an `http:` `jwksUrl` on a non-loopback host. Default: false */
  allowInsecureJwksUrl?: boolean;
  /** Accepted `iss` value(s); when set, a token without a matching `iss` is rejected. Default: not checked */
  issuer?: string | readonly string[];
  /** Accepted `aud` value(s); when set, a token without a matching `aud` is rejected. Default: not checked */
  audience?: string | readonly string[];
  /** Leeway for `exp` and `nbf` (`exp` itself is always required). Default: 30 s */
  clockToleranceSec?: number;
  /**
   * `true`: a request without a token gets 401. `false`: it is served as anonymous; a token
   * that is sent must still be valid (401 otherwise). Default: true
   */
  required?: boolean;
  /** Header that carries the token. Default: 'authorization' */
  header?: string;
  /** Auth scheme before the token, matched case-insensitively; `''` for a bare token. Default: 'Bearer' */
  scheme?: string;
  /** Cookie read when the header is absent. Default: none (cookies are ignored) */
  cookieName?: string;
  /**
   * Claim name → subgraph request header, e.g. `{ sub: 'x-user-id', scope: 'x-user-scopes' }`.
   * These headers (and `authorization`) are first deleted from every subgraph request, so a
   * client can never spoof them, then set from the verified claims: strings as is, numbers
   * and booleans stringified, arrays of those joined with a space; objects, and values that
   * are not printable ASCII (or are over 4 KiB), leave the header unset. Default: {}
   */
  claimHeaders?: Readonly<Record<string, string>>;
  /** Send the verified token to subgraphs as `authorization: Bearer <token>`. Default: false */
  forwardToken?: boolean;
  /**
   * Told why tokens are rejected (debug: the jose error code) and when JWKS fetches fail
   * (warn). Never given a token. Default: no logging
   */
  logger?: Pick<Logger, 'debug' | 'warn'>;
}

const KNOWN_OPTIONS = [
  'algorithms',
  'jwksUrl',
  'jwksFile',
  'secret',
  'jwksTimeoutMs',
  'jwksCooldownMs',
  'jwksCacheMaxAgeMs',
  'allowInsecureJwksUrl',
  'issuer',
  'audience',
  'clockToleranceSec',
  'required',
  'header',
  'scheme',
  'cookieName',
  'claimHeaders',
  'forwardToken',
  'logger',
] as const satisfies readonly (keyof JwtAuthOptions)[];

const MISSING_MESSAGE = 'Authentication required';
const INVALID_MESSAGE = 'Invalid or expired token';

/** RFC 9110 `token`: an auth scheme or a cookie name. */
const TOKEN_CHARS = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/**
 * Verifies a JWT on every request. Decisions for what the client sent (RFC 6750 §3.1):
 * - nothing → 401 when `required` (anonymous otherwise);
 * - another scheme (`Basic x`, a lone word like `garbage`) → 401 `UNAUTHENTICATED`, in
 *   both modes: the client tried to authenticate in a way this gateway does not accept;
 * - our scheme with no token or a value that is not one token (`Bearer`, `Bearer a b`)
 *   → 400 `BAD_REQUEST` (`error="invalid_request"`);
 * - a token that fails verification for any reason, including an unreachable JWKS
 *   endpoint → 401 `UNAUTHENTICATED` (`error="invalid_token"`).
 */
export function jwtAuth(options: JwtAuthOptions): GatewayPlugin {
  const settings = parseOptions(options);
  const { source, required, claimHeaders, forwardToken, logger } = settings;
  const schemeName = source.scheme || 'Bearer';
  const malformedMessage = `Malformed ${source.header} header: expected ${source.scheme ? `"${source.scheme} <token>"` : 'a bearer token'}`;
  // Every header this plugin owns on subgraph requests; deleted before anything is set.
  const ownedHeaders = [...new Set(['authorization', source.header, ...claimHeaders.map(([, header]) => header)])];

  const reject = (requestId: string, reason: string): never => {
    logger?.debug({ requestId, plugin: PLUGIN, reason }, 'jwt rejected');
    throw httpError(ClientErrorCode.UNAUTHENTICATED, INVALID_MESSAGE, {
      'www-authenticate': `${schemeName} error="invalid_token"`,
    });
  };

  return {
    name: PLUGIN,

    async authenticate(scope): Promise<Partial<Identity> | undefined> {
      const credential = readCredential(scope.headers, source);
      switch (credential.kind) {
        case 'none':
          if (!required) return undefined;
          throw httpError(ClientErrorCode.UNAUTHENTICATED, MISSING_MESSAGE, { 'www-authenticate': schemeName });
        case 'other-scheme':
          throw httpError(ClientErrorCode.UNAUTHENTICATED, MISSING_MESSAGE, { 'www-authenticate': schemeName });
        case 'malformed':
          throw httpError(ClientErrorCode.BAD_REQUEST, malformedMessage, {
            'www-authenticate': `${schemeName} error="invalid_request"`,
          });
      }
      let payload: JWTPayload;
      try {
        payload = await settings.verify(credential.token);
      } catch (error) {
        return reject(scope.requestId, reasonOf(error));
      }
      const claims = Object.freeze({ ...payload });
      return {
        ...(typeof payload.sub === 'string' ? { subject: payload.sub } : {}),
        claims,
        ...(forwardToken ? { token: credential.token } : {}),
      };
    },

    onSubgraphRequest({ headers, context }) {
      for (const name of ownedHeaders) delete headers[name];
      const { claims, token } = context.identity;
      if (claims) {
        for (const [claim, header] of claimHeaders) {
          const value = claimHeaderValue(claims[claim]);
          if (value !== undefined) headers[header] = value;
        }
      }
      if (forwardToken && token) headers.authorization = `Bearer ${token}`;
    },
  };
}

interface Settings {
  readonly verify: (token: string) => Promise<JWTPayload>;
  readonly source: TokenSource;
  readonly required: boolean;
  readonly claimHeaders: readonly (readonly [claim: string, header: string])[];
  readonly forwardToken: boolean;
  readonly logger: Pick<Logger, 'debug' | 'warn'> | undefined;
}

function parseOptions(input: JwtAuthOptions): Settings {
  const options = asOptionsObject(PLUGIN, input);
  const issues = new OptionIssues();
  checkKnownKeys(issues, options, KNOWN_OPTIONS);

  const keySources = (['jwksUrl', 'jwksFile', 'secret'] as const).filter((field) => options[field] !== undefined);
  if (keySources.length !== 1) {
    issues.add(
      'jwksUrl | jwksFile | secret',
      keySources.length === 0
        ? 'set exactly one key source'
        : `set exactly one key source, not ${keySources.join(' and ')}`,
    );
  }
  const keySource = keySources.length === 1 ? keySources[0] : undefined;
  const algorithms = parseAlgorithms(issues, options.algorithms, keySource);
  const D = JWT_DEFAULTS;
  const jwksTimeoutMs = optionalDuration(issues, options, 'jwksTimeoutMs', D.jwksTimeoutMs, { positive: true });
  const jwksCooldownMs = optionalDuration(issues, options, 'jwksCooldownMs', D.jwksCooldownMs);
  const jwksCacheMaxAgeMs = optionalDuration(issues, options, 'jwksCacheMaxAgeMs', D.jwksCacheMaxAgeMs, {
    positive: true,
  });
  const allowInsecureJwksUrl = optionalBoolean(issues, options, 'allowInsecureJwksUrl', false);
  const issuer = stringOrList(issues, options, 'issuer');
  const audience = stringOrList(issues, options, 'audience');
  const clockToleranceSec = options.clockToleranceSec ?? D.clockToleranceSec;
  if (typeof clockToleranceSec !== 'number' || !Number.isFinite(clockToleranceSec) || clockToleranceSec < 0) {
    issues.add('clockToleranceSec', 'must be a non-negative number of seconds');
  }
  const required = optionalBoolean(issues, options, 'required', D.required);
  const forwardToken = optionalBoolean(issues, options, 'forwardToken', D.forwardToken);
  const header = headerName(issues, 'header', options.header ?? D.header, ['cookie']) ?? D.header;
  const scheme = options.scheme ?? D.scheme;
  if (typeof scheme !== 'string' || (scheme !== '' && !TOKEN_CHARS.test(scheme))) {
    issues.add('scheme', "must be an auth scheme name such as 'Bearer', or '' for a bare token");
  }
  const cookieName = optionalNonEmptyString(issues, options, 'cookieName');
  if (cookieName !== undefined && !TOKEN_CHARS.test(cookieName)) issues.add('cookieName', 'must be a cookie name');
  const claimHeaders = parseClaimHeaders(issues, options.claimHeaders, header);
  const logger = options.logger as Settings['logger'];
  if (logger !== undefined && (typeof logger?.debug !== 'function' || typeof logger?.warn !== 'function')) {
    issues.add('logger', 'must have debug() and warn() methods');
  }

  const verifyOptions: JWTVerifyOptions = {
    algorithms: [...algorithms],
    requiredClaims: ['exp'],
    clockTolerance: clockToleranceSec as number,
    ...(issuer ? { issuer: [...issuer] } : {}),
    ...(audience ? { audience: [...audience] } : {}),
  };
  let verify: Settings['verify'] | undefined;
  if (keySource === 'secret') {
    const secret = parseSecret(issues, options.secret, algorithms);
    if (secret) verify = async (token) => (await jwtVerify(token, secret, verifyOptions)).payload;
  } else if (keySource === 'jwksFile') {
    const getKey = loadJwksFile(issues, options.jwksFile);
    if (getKey) verify = async (token) => (await jwtVerify(token, getKey, verifyOptions)).payload;
  } else if (keySource === 'jwksUrl') {
    const url = parseJwksUrl(issues, options.jwksUrl, allowInsecureJwksUrl);
    if (url) {
      const shownUrl = `${url.origin}${url.pathname}`;
      const getKey = createRemoteKeyResolver({
        url,
        timeoutMs: jwksTimeoutMs,
        cooldownMs: jwksCooldownMs,
        cacheMaxAgeMs: jwksCacheMaxAgeMs,
        onFetchError: (error) =>
          logger?.warn({ plugin: PLUGIN, jwksUrl: shownUrl, reason: describe(error) }, 'JWKS fetch failed'),
      });
      verify = async (token) => (await jwtVerify(token, getKey, verifyOptions)).payload;
    }
  }

  issues.throwIfAny(PLUGIN);
  return {
    verify: verify as Settings['verify'],
    source: { header, scheme: scheme as string, cookieName },
    required,
    claimHeaders,
    forwardToken,
    logger,
  };
}

function parseAlgorithms(
  issues: OptionIssues,
  value: unknown,
  keySource: 'jwksUrl' | 'jwksFile' | 'secret' | undefined,
): readonly JwtAlgorithm[] {
  const hint = keySource === 'secret' ? 'HS256, HS384, HS512' : ASYMMETRIC_ALGORITHMS.join(', ');
  if (!Array.isArray(value) || value.length === 0) {
    issues.add('algorithms', `required: a non-empty list of allowed algorithms (e.g. ${hint})`);
    return [];
  }
  const problems: string[] = [];
  for (const alg of value as unknown[]) {
    if (typeof alg === 'string' && alg.toLowerCase() === 'none')
      problems.push('"none" (unsigned tokens) is never allowed');
    else if (typeof alg === 'string' && alg in HMAC_ALGORITHMS) {
      if (keySource && keySource !== 'secret') problems.push(`${alg} needs a shared secret, not ${keySource}`);
    } else if ((ASYMMETRIC_ALGORITHMS as readonly unknown[]).includes(alg)) {
      if (keySource === 'secret') problems.push(`${String(alg)} needs public keys (jwksUrl or jwksFile), not secret`);
    } else problems.push(`${JSON.stringify(alg)} is not a supported algorithm`);
  }
  if (problems.length > 0) issues.add('algorithms', `${problems.join('; ')} (allowed with this key source: ${hint})`);
  return value as JwtAlgorithm[];
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
    issues.add('jwksFile', `cannot read a JSON file at ${path}: ${describe(error)}`);
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
    issues.add('jwksFile', `${path} is not a valid JSON Web Key Set: ${describe(error)}`);
    return undefined;
  }
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

function stringOrList(
  issues: OptionIssues,
  options: Record<string, unknown>,
  field: 'issuer' | 'audience',
): readonly string[] | undefined {
  const value = options[field];
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((item) => typeof item === 'string' && item !== '')) {
    issues.add(field, 'must be a non-empty string or a non-empty list of them');
    return undefined;
  }
  return list as string[];
}

function parseClaimHeaders(
  issues: OptionIssues,
  value: unknown,
  tokenHeader: string,
): readonly (readonly [string, string])[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.add('claimHeaders', 'must be an object mapping claim names to header names');
    return [];
  }
  const entries: [string, string][] = [];
  const seen = new Map<string, string>();
  for (const [claim, target] of Object.entries(value)) {
    const field = `claimHeaders.${claim}`;
    if (claim === '') issues.add(field, 'claim name must not be empty');
    const header = headerName(issues, field, target, ['authorization', 'cookie', tokenHeader]);
    if (!header) continue;
    const previous = seen.get(header);
    if (previous !== undefined) {
      issues.add(field, `header "${header}" is already set from claim "${previous}"`);
      continue;
    }
    seen.set(header, claim);
    entries.push([claim, header]);
  }
  return entries;
}

/** A short, token-free reason: jose's stable error code, or the error's name. */
function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string') return code;
    if (typeof name === 'string') return name;
  }
  return 'unknown';
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? `${error.message} (${cause.code})` : error.message;
}
