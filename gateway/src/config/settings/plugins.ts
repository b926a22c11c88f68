import * as v from 'valibot';
import type { ConfigIssue } from '../../errors.js';
import { API_KEY_VALUES } from '../../plugins/api-key/index.js';
import { CLIENT_AWARENESS_VALUES } from '../../plugins/client-awareness/index.js';
import { HEADER_RULES_VALUES } from '../../plugins/header-rules/index.js';
import { JWT_ALGORITHMS, JWT_VALUES } from '../../plugins/jwt/options.js';
import {
  isRedisUrl,
  RATE_LIMIT_DEFAULTS,
  RATE_LIMIT_KEYS,
  RATE_LIMIT_VALUES,
} from '../../plugins/rate-limit/options.js';
import {
  custom,
  httpUrl,
  integer,
  json,
  list,
  nonEmpty,
  oneOf,
  pairs,
  readValue,
  secret,
  type ValueParser,
  withDefault,
} from '../../settings/kinds.js';
import { type PluginName, RATE_LIMIT_COSTS } from '../choices.js';
import { apiKeys, headerPairs, pluginList } from './plugin-kinds.js';

import { type ConfigOf, defineFields, type FlatConfigOf } from './spec.js';

export const redisUrl: ValueParser<string> = secret(
  v.pipe(
    v.string(),
    v.check((raw: string) => isRedisUrl(raw)),
  ),
  'expected a redis:// or rediss:// URL',
);

/** `RATE_LIMIT_KEY=operation` existed once; it was removed as unsafe (see REMOVED_SETTINGS). */
const OPERATION_KEY_REMOVED =
  'removed: operation names are chosen by the client, so each new name got a fresh bucket; ' +
  'use ip, sub, api-key or global';

/** GATEWAY_PLUGINS and the settings of each plugin it can name. */
export const PLUGIN_FIELDS = defineFields([
  {
    key: 'plugins',
    env: 'GATEWAY_PLUGINS',
    parse: withDefault(pluginList, []),
    meaning:
      "plugins to run: a profile or a comma list of profiles and plugin names (`jwt`, `api-key`, `client-awareness`, `header-rules`, `response-headers`, `rate-limit`, `full`…); see [Plugins](plugins.md). Set, it replaces the config file's list of built-in plugins (its modules stay), with a warning for each of `jwt`, `api-key` and `rate-limit` the file enables and it leaves out; empty is not set, `none` runs none",
  },
  {
    key: 'pluginModuleTimeoutMs',
    env: 'GATEWAY_PLUGIN_MODULE_TIMEOUT_MS',
    parse: withDefault(integer(100, 600_000), 10_000),
    meaning:
      'each plugin module the config file names must be imported and its factory done within this, or the start stops with `ERR_GATEWAY_PLUGIN_MODULE_TIMEOUT` naming it (a module that never finished loading left the process up, never ready, saying nothing); see [Plugins](plugins.md#from-i-wrote-a-plugin-to-it-runs-in-the-image-and-in-kubernetes)',
  },
  {
    key: 'jwt.jwksUrl',
    formerKey: 'jwtJwksUrl',
    env: 'JWT_JWKS_URL',
    parse: httpUrl,
    meaning:
      "`jwt`: the identity provider's JWKS URL (https, or http on loopback); one of `JWT_JWKS_URL`, `JWT_JWKS_FILE`, `JWT_SECRET`",
    feature: 'jwt',
  },
  {
    key: 'jwt.jwksFile',
    formerKey: 'jwtJwksFile',
    env: 'JWT_JWKS_FILE',
    parse: nonEmpty,
    meaning: '`jwt`: a local JWKS file (public keys only)',
    feature: 'jwt',
  },
  {
    key: 'jwt.secret',
    formerKey: 'jwtSecret',
    env: 'JWT_SECRET',
    parse: secret(nonEmpty, 'expected a non-empty shared secret'),
    meaning: '`jwt`: an HS256/384/512 shared secret (at least 32/48/64 bytes); a secret, never logged',
    feature: 'jwt',
  },
  {
    key: 'jwt.issuer',
    formerKey: 'jwtIssuer',
    env: 'JWT_ISSUER',
    parse: nonEmpty,
    meaning: '`jwt`: the required `iss`',
    feature: 'jwt',
  },
  {
    key: 'jwt.audience',
    formerKey: 'jwtAudience',
    env: 'JWT_AUDIENCE',
    parse: list(),
    meaning: '`jwt`: accepted `aud` values, comma-separated',
    feature: 'jwt',
  },
  {
    key: 'jwt.algorithms',
    formerKey: 'jwtAlgorithms',
    env: 'JWT_ALGORITHMS',
    parse: withDefault(list(oneOf(JWT_ALGORITHMS)), []),
    meaning: '`jwt`: required allowlist of algorithms (`RS256,ES256`); `none` is always refused',
    feature: 'jwt',
  },
  {
    key: 'jwt.required',
    formerKey: 'jwtRequired',
    env: 'JWT_REQUIRED',
    parse: JWT_VALUES.required,
    meaning: '`jwt`: `true`: no token is 401; `false`: no token is anonymous (a bad one is still 401)',
    feature: 'jwt',
  },
  {
    key: 'jwt.claimHeaders',
    formerKey: 'jwtClaimHeaders',
    env: 'JWT_CLAIM_HEADERS',
    parse: withDefault(pairs(nonEmpty, 'claim:header'), { sub: 'x-user-id' }),
    meaning:
      '`jwt`: claims forwarded to subgraphs as headers, `claim:header,…`; incoming copies are always removed first',
    docDefault: '`sub:x-user-id`',
    feature: 'jwt',
  },
  {
    key: 'jwt.header',
    formerKey: 'jwtHeader',
    env: 'JWT_HEADER',
    parse: JWT_VALUES.header,
    meaning: '`jwt`: the header carrying the token',
    feature: 'jwt',
  },
  {
    key: 'jwt.scheme',
    formerKey: 'jwtPrefix',
    env: 'JWT_PREFIX',
    parse: JWT_VALUES.scheme,
    meaning: '`jwt`: the scheme before the token',
    feature: 'jwt',
  },
  {
    key: 'jwt.cookieName',
    formerKey: 'jwtCookie',
    env: 'JWT_COOKIE',
    parse: nonEmpty,
    meaning: '`jwt`: read the token from this cookie instead',
    feature: 'jwt',
  },
  {
    key: 'jwt.clockToleranceSec',
    formerKey: 'jwtClockToleranceSec',
    env: 'JWT_CLOCK_TOLERANCE_S',
    parse: JWT_VALUES.clockToleranceSec,
    meaning: '`jwt`: seconds of clock skew allowed on `exp`/`nbf`',
    feature: 'jwt',
  },
  {
    key: 'jwt.jwksTimeoutMs',
    formerKey: 'jwtJwksTimeoutMs',
    env: 'JWT_JWKS_TIMEOUT_MS',
    parse: JWT_VALUES.jwksTimeoutMs,
    meaning: '`jwt`: bounds each JWKS fetch',
    feature: 'jwt',
  },
  {
    key: 'jwt.jwksCooldownMs',
    formerKey: 'jwtJwksCooldownMs',
    env: 'JWT_JWKS_COOLDOWN_MS',
    parse: JWT_VALUES.jwksCooldownMs,
    meaning: '`jwt`: at most one JWKS fetch per this interval (an unknown `kid` cannot force more)',
    feature: 'jwt',
  },
  {
    key: 'jwt.jwksCacheMaxAgeMs',
    formerKey: 'jwtJwksCacheMaxAgeMs',
    env: 'JWT_JWKS_CACHE_MAX_AGE_MS',
    parse: JWT_VALUES.jwksCacheMaxAgeMs,
    meaning: '`jwt`: cached keys are used at most this long',
    feature: 'jwt',
  },
  {
    key: 'jwt.forwardToken',
    formerKey: 'jwtForwardToken',
    env: 'JWT_FORWARD_TOKEN',
    parse: JWT_VALUES.forwardToken,
    meaning: '`jwt`: forward the raw token to subgraphs',
    feature: 'jwt',
  },
  {
    key: 'apiKey.keys',
    formerKey: 'apiKeys',
    env: 'GATEWAY_API_KEYS',
    formerEnv: ['API_KEYS'],
    parse: withDefault(apiKeys, []),
    meaning: '`api-key`: `consumer:key` or `consumer:sha256:<hex>` entries, comma-separated; a secret, never logged',
    feature: 'api-key',
  },
  {
    key: 'apiKey.header',
    formerKey: 'apiKeyHeader',
    env: 'GATEWAY_API_KEY_HEADER',
    formerEnv: ['API_KEY_HEADER'],
    parse: API_KEY_VALUES.header,
    meaning: '`api-key`: the header carrying the key',
    feature: 'api-key',
  },
  {
    key: 'clientAwareness.nameClaim',
    formerKey: 'clientNameClaim',
    env: 'CLIENT_AWARENESS_NAME_CLAIM',
    formerEnv: ['CLIENT_NAME_CLAIM'],
    parse: CLIENT_AWARENESS_VALUES.nameClaim,
    meaning: '`client-awareness`: the JWT claim giving `apollographql-client-name`',
    feature: 'client-awareness',
  },
  {
    key: 'clientAwareness.versionClaim',
    formerKey: 'clientVersionClaim',
    env: 'CLIENT_AWARENESS_VERSION_CLAIM',
    formerEnv: ['CLIENT_VERSION_CLAIM'],
    parse: CLIENT_AWARENESS_VALUES.versionClaim,
    meaning: '`client-awareness`: the JWT claim giving `apollographql-client-version`',
    feature: 'client-awareness',
  },
  {
    key: 'headerRules.rules',
    formerKey: 'headerRules',
    env: 'GATEWAY_HEADER_RULES',
    formerEnv: ['HEADER_RULES'],
    parse: json,
    meaning:
      '`header-rules`: Apollo Router-shaped rules, JSON; see [Header rules](plugins.md#header-rules-header-rules)',
    feature: 'header-rules',
  },
  {
    key: 'headerRules.maxValueBytes',
    formerKey: 'headerRulesMaxValueBytes',
    env: 'GATEWAY_HEADER_RULES_MAX_VALUE_BYTES',
    formerEnv: ['HEADER_RULES_MAX_VALUE_BYTES'],
    parse: HEADER_RULES_VALUES.maxValueBytes,
    meaning:
      '`header-rules`: bytes (UTF-8) of one header value the rules forward; a client header over it is answered 431 `REQUEST_HEADER_FIELDS_TOO_LARGE` before any subgraph is asked',
    docDefault: '`4kb`',
    feature: 'header-rules',
  },
  {
    key: 'headerRules.maxTotalBytes',
    formerKey: 'headerRulesMaxTotalBytes',
    env: 'GATEWAY_HEADER_RULES_MAX_TOTAL_BYTES',
    formerEnv: ['HEADER_RULES_MAX_TOTAL_BYTES'],
    parse: HEADER_RULES_VALUES.maxTotalBytes,
    meaning:
      '`header-rules`: bytes of every header the rules forward to one subgraph (names and values); over it, 431 as above',
    docDefault: '`8kb`',
    feature: 'header-rules',
  },
  {
    key: 'responseHeaders.headers',
    formerKey: 'responseHeaders',
    env: 'GATEWAY_RESPONSE_HEADERS',
    formerEnv: ['RESPONSE_HEADERS'],
    parse: withDefault(headerPairs, []),
    meaning: '`response-headers`: `name:value,…`, values may be `{uuid}` or `{requestId}`',
    feature: 'response-headers',
  },
  {
    key: 'rateLimit.max',
    formerKey: 'rateLimitMax',
    env: 'RATE_LIMIT_MAX',
    parse: RATE_LIMIT_VALUES.max,
    meaning: '`rate-limit`: requests (cost units) per window',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.windowMs',
    formerKey: 'rateLimitWindowMs',
    env: 'RATE_LIMIT_WINDOW',
    parse: RATE_LIMIT_VALUES.windowMs,
    meaning: '`rate-limit`: fixed window (`500ms`, `60s`, `5m`)',
    docDefault: '`60s`',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.keyBy',
    formerKey: 'rateLimitKey',
    env: 'RATE_LIMIT_KEY',
    // The plugin's schema and default, and a clear error for the removed `operation`.
    parse: withDefault(
      custom(`one of ${RATE_LIMIT_KEYS.join(' | ')}`, (raw) =>
        raw === 'operation' ? { ok: false, message: OPERATION_KEY_REMOVED } : readValue(RATE_LIMIT_VALUES.keyBy, raw),
      ),
      RATE_LIMIT_DEFAULTS.keyBy,
    ),
    meaning:
      '`rate-limit`: `ip`, `sub`, `api-key` or `global`; see [Rate limiting](plugins.md#rate-limiting-rate-limit)',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.cost',
    formerKey: 'rateLimitCost',
    env: 'RATE_LIMIT_COST',
    parse: withDefault(oneOf(RATE_LIMIT_COSTS), 'request'),
    meaning:
      '`rate-limit`: `request` (1 each) or `estimated` (the demand-control estimate, at least 1; 1 for a request refused over `MAX_COST`)',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.failureMode',
    formerKey: 'rateLimitFailureMode',
    env: 'RATE_LIMIT_FAILURE_MODE',
    parse: RATE_LIMIT_VALUES.failureMode,
    meaning: '`rate-limit`: when Redis is down, `open` lets requests through, `closed` answers 503',
    feature: 'rate-limit',
  },
  {
    key: 'rateLimit.redisUrl',
    formerKey: 'redisUrl',
    env: 'GATEWAY_REDIS_URL',
    formerEnv: ['REDIS_URL'],
    parse: redisUrl,
    meaning: '`rate-limit`: counts in this Redis (`redis://`, `rediss://`) instead of memory; a secret, never logged',
    feature: 'rate-limit',
  },
]);

type PluginSettings = ConfigOf<typeof PLUGIN_FIELDS>;
type PluginSettingKey = keyof FlatConfigOf<typeof PLUGIN_FIELDS>;

/** Settings each plugin cannot run without, read from the typed config; checked only when the plugin is on. */
const REQUIRED_BY_PLUGIN: {
  readonly [P in PluginName]?: (config: PluginSettings) => readonly (readonly [PluginSettingKey, unknown])[];
} = {
  jwt: ({ jwt }) => [['jwt.algorithms', jwt.algorithms]],
  'api-key': ({ apiKey }) => [['apiKey.keys', apiKey.keys]],
  'header-rules': ({ headerRules }) => [['headerRules.rules', headerRules.rules]],
  'response-headers': ({ responseHeaders }) => [['responseHeaders.headers', responseHeaders.headers]],
};
/** A setting's environment variable, as errors name it. */
const envOf = (key: PluginSettingKey) => PLUGIN_FIELDS.find((field) => field.key === key)?.env ?? key;

/** The plugins' rule (ADR 052): what a setting needs only when a plugin that uses it is on, named by variable. */
export function checkPluginSettings(config: PluginSettings, issues: ConfigIssue[]): void {
  for (const plugin of config.plugins) {
    for (const [key, value] of REQUIRED_BY_PLUGIN[plugin]?.(config) ?? []) {
      if (value === undefined || (Array.isArray(value) && value.length === 0)) {
        issues.push({ field: envOf(key), message: `required by the ${plugin} plugin` });
      }
    }
  }
  if (config.plugins.includes('jwt')) {
    const { jwksUrl, jwksFile, secret } = config.jwt;
    const sources = [jwksUrl, jwksFile, secret].filter((source) => source !== undefined);
    if (sources.length !== 1) {
      issues.push({
        field: 'JWT_JWKS_URL | JWT_JWKS_FILE | JWT_SECRET',
        message: `the jwt plugin needs exactly one key source, got ${sources.length}`,
      });
    }
  }
}
