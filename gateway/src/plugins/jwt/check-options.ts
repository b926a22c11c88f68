// Checking the JWT plugin's options (every problem reported at once) into the settings the
// plugin runs with. Imports only types from jose.
import type { JWTVerifyOptions } from 'jose';
import {
  asOptionsObject,
  checkKnownKeys,
  headerName,
  type Logger,
  nonEmpty,
  type OptionIssues,
  optionalValue,
} from '../../plugin-sdk/index.js';
import type { TokenSource } from '../shared/bearer.js';
import {
  ASYMMETRIC_ALGORITHMS,
  HMAC_ALGORITHMS,
  JWT_DEFAULTS,
  JWT_VALUES,
  type JwtAlgorithm,
  type JwtAuthOptions,
  PLUGIN_NAME,
} from './options.js';

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

  const keySource = keySourceOf(keySourceKind, options, algorithms, {
    allowInsecureJwksUrl,
    jwksTimeoutMs,
    jwksCooldownMs,
    jwksCacheMaxAgeMs,
  });
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

/** The key source that is set, with what loading it needs; undefined when not exactly one is. */
function keySourceOf(
  kind: KeySource['kind'] | undefined,
  options: Record<string, unknown>,
  algorithms: readonly JwtAlgorithm[],
  jwks: { allowInsecureJwksUrl: boolean; jwksTimeoutMs: number; jwksCooldownMs: number; jwksCacheMaxAgeMs: number },
): KeySource | undefined {
  return kind === 'secret'
    ? { kind: 'secret', secret: options.secret, algorithms }
    : kind === 'jwksFile'
      ? { kind: 'jwksFile', path: options.jwksFile }
      : kind === 'jwksUrl'
        ? {
            kind: 'jwksUrl',
            url: options.jwksUrl,
            allowInsecure: jwks.allowInsecureJwksUrl,
            timeoutMs: jwks.jwksTimeoutMs,
            cooldownMs: jwks.jwksCooldownMs,
            cacheMaxAgeMs: jwks.jwksCacheMaxAgeMs,
          }
        : undefined;
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
