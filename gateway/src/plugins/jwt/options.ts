// The JWT plugin's options: their types, defaults and checks. Imports only types from jose,
// so the config parser can read JWT_DEFAULTS without loading it.
import type { JWTVerifyOptions } from 'jose';
import {
  asOptionsObject,
  boolean,
  checkKnownKeys,
  defaultsOf,
  headerName,
  integer,
  type Logger,
  nonEmpty,
  type OptionIssues,
  optionalValue,
  withDefault,
} from '../../plugin-sdk/index.js';
import type { TokenSource } from '../shared/bearer.js';

export const PLUGIN_NAME = 'jwt';

/** HMAC algorithms: only with `secret`. The value is the minimum secret length in bytes (RFC 7518 §3.2). */
export const HMAC_ALGORITHMS = { HS256: 32, HS384: 48, HS512: 64 } as const;
/** Public-key algorithms Node's WebCrypto verifies: only with `jwksUrl` / `jwksFile`. */
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
/** Every algorithm a token may be verified with (JWT_ALGORITHMS is read as a list of these). */
export const JWT_ALGORITHMS: readonly JwtAlgorithm[] = [
  ...(Object.keys(HMAC_ALGORITHMS) as (keyof typeof HMAC_ALGORITHMS)[]),
  ...ASYMMETRIC_ALGORITHMS,
];

/** The schemas (with their defaults) JWT_JWKS_TIMEOUT_MS, JWT_CLOCK_TOLERANCE_S… are read with, and the options checked with. */
export const JWT_VALUES = Object.freeze({
  jwksTimeoutMs: withDefault(integer(1, 60_000), 5_000),
  jwksCooldownMs: withDefault(integer(0, 3_600_000), 30_000),
  jwksCacheMaxAgeMs: withDefault(integer(1000, 86_400_000), 600_000),
  clockToleranceSec: withDefault(integer(0, 600), 30),
  required: withDefault(boolean, true),
  forwardToken: withDefault(boolean, false),
  header: withDefault(nonEmpty, 'authorization'),
  scheme: withDefault(nonEmpty, 'Bearer'),
  allowInsecureJwksUrl: withDefault(boolean, false),
});
/** The defaults of the optional options, from their schemas. */
export const JWT_DEFAULTS = defaultsOf(JWT_VALUES);

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

/** RFC 9110 `token`: an auth scheme or a cookie name. */
const TOKEN_CHARS = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The one key source that is set, with what loading it needs (keys.ts checks its value). */
export type KeySource =
  | { readonly kind: 'secret'; readonly secret: unknown; readonly algorithms: readonly JwtAlgorithm[] }
  | { readonly kind: 'jwksFile'; readonly path: unknown }
  | {
      readonly kind: 'jwksUrl';
      readonly url: unknown;
      readonly allowInsecure: boolean;
      readonly timeoutMs: number;
      readonly cooldownMs: number;
      readonly cacheMaxAgeMs: number;
    };

export interface JwtSettings {
  /** Undefined when not exactly one key source is set (an issue says so). */
  readonly keySource: KeySource | undefined;
  readonly verifyOptions: JWTVerifyOptions;
  readonly tokenSource: TokenSource;
  readonly required: boolean;
  readonly claimHeaders: readonly (readonly [claim: string, header: string])[];
  readonly forwardToken: boolean;
  readonly logger: Pick<Logger, 'debug' | 'warn'> | undefined;
}

/** Checks every option but the key source's value, adding each problem to `issues`. */
export function checkOptions(issues: OptionIssues, input: JwtAuthOptions): JwtSettings {
  const options = asOptionsObject(PLUGIN_NAME, input);
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
  const keySourceKind = keySources.length === 1 ? keySources[0] : undefined;
  const algorithms = checkAlgorithms(issues, options.algorithms, keySourceKind);
  const D = JWT_DEFAULTS;
  const V = JWT_VALUES;
  const jwksTimeoutMs = optionalValue(issues, options, 'jwksTimeoutMs', V.jwksTimeoutMs, D.jwksTimeoutMs);
  const jwksCooldownMs = optionalValue(issues, options, 'jwksCooldownMs', V.jwksCooldownMs, D.jwksCooldownMs);
  const jwksCacheMaxAgeMs = optionalValue(
    issues,
    options,
    'jwksCacheMaxAgeMs',
    V.jwksCacheMaxAgeMs,
    D.jwksCacheMaxAgeMs,
  );
  const allowInsecureJwksUrl = optionalValue(issues, options, 'allowInsecureJwksUrl', V.allowInsecureJwksUrl);
  const issuer = stringOrList(issues, options, 'issuer');
  const audience = stringOrList(issues, options, 'audience');
  const clockToleranceSec = optionalValue(
    issues,
    options,
    'clockToleranceSec',
    V.clockToleranceSec,
    D.clockToleranceSec,
  );
  const required = optionalValue(issues, options, 'required', V.required, D.required);
  const forwardToken = optionalValue(issues, options, 'forwardToken', V.forwardToken, D.forwardToken);
  const header = headerName(issues, 'header', options.header ?? D.header, ['cookie']) ?? D.header;
  const scheme = options.scheme ?? D.scheme;
  if (typeof scheme !== 'string' || (scheme !== '' && !TOKEN_CHARS.test(scheme))) {
    issues.add('scheme', "must be an auth scheme name such as 'Bearer', or '' for a bare token");
  }
  const cookieName = optionalValue(issues, options, 'cookieName', nonEmpty, undefined);
  if (cookieName !== undefined && !TOKEN_CHARS.test(cookieName)) issues.add('cookieName', 'must be a cookie name');
  const claimHeaders = checkClaimHeaders(issues, options.claimHeaders, header);
  const logger = options.logger as JwtSettings['logger'];
  if (logger !== undefined && (typeof logger?.debug !== 'function' || typeof logger?.warn !== 'function')) {
    issues.add('logger', 'must have debug() and warn() methods');
  }

  const keySource: KeySource | undefined =
    keySourceKind === 'secret'
      ? { kind: 'secret', secret: options.secret, algorithms }
      : keySourceKind === 'jwksFile'
        ? { kind: 'jwksFile', path: options.jwksFile }
        : keySourceKind === 'jwksUrl'
          ? {
              kind: 'jwksUrl',
              url: options.jwksUrl,
              allowInsecure: allowInsecureJwksUrl,
              timeoutMs: jwksTimeoutMs,
              cooldownMs: jwksCooldownMs,
              cacheMaxAgeMs: jwksCacheMaxAgeMs,
            }
          : undefined;
  return {
    keySource,
    verifyOptions: {
      algorithms: [...algorithms],
      requiredClaims: ['exp'],
      clockTolerance: clockToleranceSec as number,
      ...(issuer ? { issuer: [...issuer] } : {}),
      ...(audience ? { audience: [...audience] } : {}),
    },
    tokenSource: { header, scheme: scheme as string, cookieName },
    required,
    claimHeaders,
    forwardToken,
    logger,
  };
}

function checkAlgorithms(
  issues: OptionIssues,
  value: unknown,
  keySource: KeySource['kind'] | undefined,
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

function checkClaimHeaders(
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
