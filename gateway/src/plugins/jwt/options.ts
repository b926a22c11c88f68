// The JWT plugin's options: their types and defaults (checked in check-options.ts). Imports
// nothing from jose, so the config parser can read JWT_DEFAULTS without loading it.
import { boolean, defaultsOf, integer, type Logger, nonEmpty, withDefault } from '../../plugin-sdk/index.js';

export const PLUGIN_NAME = 'jwt';

/** HMAC algorithms: only with `secret`. The value is the minimum secret length in bytes (RFC 7518 §3.2). */
export const HMAC_ALGORITHMS = { HS256: 32, HS384: 48, HS512: 64 } as const;
/** Public-key algorithms Node's WebCrypto verifies: only with `jwksUrl` / `jwksFile`. */
export const ASYMMETRIC_ALGORITHMS = [
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
