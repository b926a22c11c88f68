import { availableParallelism } from 'node:os';
import { API_KEY_DEFAULTS } from '../plugins/api-key/index.js';
import { CLIENT_AWARENESS_DEFAULTS } from '../plugins/client-awareness/index.js';
import { DEFAULT_LIST_SIZE, DEFAULT_MAX_COST } from '../plugins/demand-control/index.js';
import { HEADER_RULES_DEFAULTS } from '../plugins/header-rules/index.js';
import { JWT_DEFAULTS } from '../plugins/jwt/options.js';
import { METRICS_DEFAULTS } from '../plugins/metrics/config.js';
import { DEFAULT_OPERATION_LIMITS } from '../plugins/operation-limits/index.js';
import {
  isRedisUrl,
  RATE_LIMIT_DEFAULTS,
  RATE_LIMIT_FAILURE_MODES,
  RATE_LIMIT_KEYS,
} from '../plugins/rate-limit/options.js';
import {
  exporterHeaders,
  OTEL_SAMPLERS,
  OTLP_PROTOCOLS,
  resourceAttributes,
  samplerRatio,
  TRACING_DEFAULTS,
} from '../plugins/tracing/options.js';
import { RESILIENCE_DEFAULTS, RESILIENCE_FIELDS } from '../resilience/config.js';
import {
  boolean,
  byteSize,
  duration,
  httpUrl,
  integer,
  json,
  list,
  nonEmpty,
  oneOf,
  pairs,
  secret,
  urlPath,
  type ValueParser,
} from '../settings/values.js';
import { pollInterval, SUPERGRAPH_RELOAD_DEFAULTS } from '../supergraph/options.js';
import { apiKeys, headerPairs, pluginList } from './plugin-values.js';
import {
  ADAPTERS,
  GATEWAY_ENVS,
  type GatewayConfig,
  LOG_LEVELS,
  RATE_LIMIT_COSTS,
  RUNTIMES,
  type SubgraphOverride,
  TRUSTED_DOCUMENTS_MODES,
} from './types.js';

// Every setting: its environment variable, its key in GatewayConfig and the config file, how its
// value is read, and its default. parse.ts applies them; the docs reference is generated from them.

export type ScalarKey = Exclude<keyof GatewayConfig, 'subgraphs'>;

export interface FieldSpec {
  /** Key in the config file (and in GatewayConfig). */
  key: ScalarKey;
  /** Environment variable; it wins over the file. */
  env: string;
  parse: ValueParser<unknown>;
  /** Default, which may depend on `env` (production vs development). */
  fallback: (partial: { env: GatewayConfig['env'] }) => unknown;
}

const isDev = (c: { env: GatewayConfig['env'] }) => c.env === 'development';
const none = () => undefined;
const redisUrl: ValueParser<string> = secret(
  (raw) =>
    isRedisUrl(raw)
      ? { ok: true, value: raw as string }
      : { ok: false, message: 'expected a redis:// or rediss:// URL' },
  'expected a redis:// or rediss:// URL',
);

/** GATEWAY_WORKERS: `auto` is the cores this process may use (cgroup limits included). */
const workerCount: ValueParser<number> = (raw) =>
  raw === 'auto' ? { ok: true, value: availableParallelism() } : integer(1, 256)(raw);

/** `RATE_LIMIT_KEY=operation` existed once; it was removed as unsafe (see REMOVED_SETTINGS). */
const OPERATION_KEY_REMOVED =
  'removed: operation names are chosen by the client, so each new name got a fresh bucket; ' +
  'use ip, sub, api-key or global';

/** Every setting, in the order the README documents them. */
export const CONFIG_FIELDS: readonly FieldSpec[] = [
  { key: 'env', env: 'GATEWAY_ENV', parse: oneOf(GATEWAY_ENVS), fallback: () => 'production' },
  { key: 'runtime', env: 'GATEWAY_RUNTIME', parse: oneOf(RUNTIMES), fallback: () => 'nest' },
  { key: 'adapter', env: 'GATEWAY_ADAPTER', parse: oneOf(ADAPTERS), fallback: () => 'fastify' },
  { key: 'workers', env: 'GATEWAY_WORKERS', parse: workerCount, fallback: () => 1 },
  { key: 'host', env: 'HOST', parse: nonEmpty, fallback: () => '0.0.0.0' },
  { key: 'port', env: 'PORT', parse: integer(0, 65535), fallback: () => 4000 },
  { key: 'graphqlPath', env: 'GRAPHQL_PATH', parse: urlPath, fallback: () => '/graphql' },
  { key: 'supergraphPath', env: 'SUPERGRAPH_PATH', parse: nonEmpty, fallback: () => 'supergraph.graphql' },
  {
    key: 'supergraphUrl',
    env: 'SUPERGRAPH_URL',
    // Hidden in errors: a signed artifact URL carries its token in the query string.
    parse: secret(httpUrl, 'expected an http(s) URL'),
    fallback: none,
  },
  {
    key: 'supergraphPollIntervalMs',
    env: 'SUPERGRAPH_POLL_INTERVAL_MS',
    parse: pollInterval,
    fallback: () => SUPERGRAPH_RELOAD_DEFAULTS.pollIntervalMs,
  },
  {
    key: 'supergraphUrlTimeoutMs',
    env: 'SUPERGRAPH_URL_TIMEOUT_MS',
    parse: integer(100, 600_000),
    fallback: () => SUPERGRAPH_RELOAD_DEFAULTS.urlTimeoutMs,
  },
  {
    key: 'supergraphUrlMaxBytes',
    env: 'SUPERGRAPH_URL_MAX_BYTES',
    parse: byteSize(1024, 1024 ** 3),
    fallback: () => SUPERGRAPH_RELOAD_DEFAULTS.urlMaxBytes,
  },
  { key: 'subgraphTimeoutMs', env: 'SUBGRAPH_TIMEOUT_MS', parse: integer(1, 600_000), fallback: () => 30_000 },
  {
    key: 'subgraphPoolConnections',
    env: 'SUBGRAPH_POOL_CONNECTIONS',
    parse: integer(1, 10_000),
    fallback: () => 128,
  },
  { key: 'subgraphKeepAliveMs', env: 'SUBGRAPH_KEEP_ALIVE_MS', parse: integer(100, 600_000), fallback: () => 30_000 },
  {
    key: 'subgraphMaxResponseBytes',
    env: 'SUBGRAPH_MAX_RESPONSE_BYTES',
    parse: byteSize(1024, 1024 ** 3),
    // Below MAX_RESPONSE_BYTES, so one oversized subgraph costs its own fields, not the whole answer.
    fallback: () => 5 * 1024 ** 2,
  },
  { key: 'subgraphDeduplicate', env: 'SUBGRAPH_DEDUPLICATE', parse: boolean, fallback: () => false },
  {
    key: 'subgraphDeduplicateRepresentations',
    env: 'SUBGRAPH_DEDUPLICATE_REPRESENTATIONS',
    parse: boolean,
    fallback: () => true,
  },
  // Retries and circuit breaker: SUBGRAPH_RETRIES … SUBGRAPH_CIRCUIT_COOLDOWN_MS (resilience/config.ts).
  ...RESILIENCE_FIELDS.map(({ suffix, key, configKey, parse }) => ({
    key: configKey,
    env: `SUBGRAPH_${suffix}`,
    parse,
    fallback: () => RESILIENCE_DEFAULTS[key],
  })),
  { key: 'bodyLimitBytes', env: 'BODY_LIMIT', parse: byteSize(1024, 100 * 1024 ** 2), fallback: () => 2 * 1024 ** 2 },
  { key: 'requestTimeoutMs', env: 'REQUEST_TIMEOUT_MS', parse: integer(100, 3_600_000), fallback: () => 30_000 },
  { key: 'headersTimeoutMs', env: 'HEADERS_TIMEOUT_MS', parse: integer(100, 3_600_000), fallback: () => 10_000 },
  { key: 'keepAliveTimeoutMs', env: 'KEEP_ALIVE_TIMEOUT_MS', parse: integer(100, 3_600_000), fallback: () => 72_000 },
  {
    key: 'stalledWriteTimeoutMs',
    env: 'STALLED_WRITE_TIMEOUT_MS',
    parse: integer(100, 3_600_000),
    fallback: () => 30_000,
  },
  { key: 'introspection', env: 'INTROSPECTION', parse: boolean, fallback: isDev },
  { key: 'landingPage', env: 'LANDING_PAGE', parse: boolean, fallback: isDev },
  { key: 'maskErrors', env: 'MASK_ERRORS', parse: boolean, fallback: (c) => !isDev(c) },
  { key: 'shutdownGraceMs', env: 'SHUTDOWN_GRACE_MS', parse: integer(0, 600_000), fallback: () => 10_000 },
  { key: 'shutdownDelayMs', env: 'SHUTDOWN_DELAY_MS', parse: integer(0, 600_000), fallback: () => 0 },
  { key: 'logLevel', env: 'LOG_LEVEL', parse: oneOf(LOG_LEVELS), fallback: () => 'info' },
  { key: 'logPretty', env: 'LOG_PRETTY', parse: boolean, fallback: isDev },
  { key: 'metricsEnabled', env: 'METRICS_ENABLED', parse: boolean, fallback: () => false },
  { key: 'metricsPort', env: 'METRICS_PORT', parse: integer(0, 65535), fallback: none },
  { key: 'metricsPath', env: 'METRICS_PATH', parse: urlPath, fallback: () => METRICS_DEFAULTS.path },
  {
    key: 'metricsMaxOperationNames',
    env: 'METRICS_MAX_OPERATION_NAMES',
    parse: integer(0, 10_000),
    fallback: () => METRICS_DEFAULTS.maxOperationNames,
  },
  {
    key: 'metricsOperationNameMinCount',
    env: 'METRICS_OPERATION_NAME_MIN_COUNT',
    parse: integer(1, 1_000_000),
    fallback: () => METRICS_DEFAULTS.operationNameMinCount,
  },

  // OpenTelemetry's standard variables (tracing is on when an OTLP endpoint is set).
  { key: 'otelSdkDisabled', env: 'OTEL_SDK_DISABLED', parse: boolean, fallback: () => false },
  { key: 'otelServiceName', env: 'OTEL_SERVICE_NAME', parse: nonEmpty, fallback: none },
  { key: 'otelResourceAttributes', env: 'OTEL_RESOURCE_ATTRIBUTES', parse: resourceAttributes, fallback: () => ({}) },
  { key: 'otelExporterOtlpEndpoint', env: 'OTEL_EXPORTER_OTLP_ENDPOINT', parse: httpUrl, fallback: none },
  { key: 'otelExporterOtlpTracesEndpoint', env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', parse: httpUrl, fallback: none },
  {
    key: 'otelExporterOtlpProtocol',
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    parse: oneOf(OTLP_PROTOCOLS),
    fallback: () => TRACING_DEFAULTS.protocol,
  },
  { key: 'otelExporterOtlpHeaders', env: 'OTEL_EXPORTER_OTLP_HEADERS', parse: exporterHeaders, fallback: () => ({}) },
  {
    key: 'otelTracesSampler',
    env: 'OTEL_TRACES_SAMPLER',
    parse: oneOf(OTEL_SAMPLERS),
    fallback: () => TRACING_DEFAULTS.sampler,
  },
  { key: 'otelTracesSamplerArg', env: 'OTEL_TRACES_SAMPLER_ARG', parse: samplerRatio, fallback: none },

  { key: 'plugins', env: 'GATEWAY_PLUGINS', parse: pluginList, fallback: () => [] },
  { key: 'jwtJwksUrl', env: 'JWT_JWKS_URL', parse: httpUrl, fallback: none },
  { key: 'jwtJwksFile', env: 'JWT_JWKS_FILE', parse: nonEmpty, fallback: none },
  {
    key: 'jwtSecret',
    env: 'JWT_SECRET',
    parse: secret(nonEmpty, 'expected a non-empty shared secret'),
    fallback: none,
  },
  { key: 'jwtIssuer', env: 'JWT_ISSUER', parse: nonEmpty, fallback: none },
  { key: 'jwtAudience', env: 'JWT_AUDIENCE', parse: list(), fallback: none },
  { key: 'jwtAlgorithms', env: 'JWT_ALGORITHMS', parse: list(), fallback: () => [] },
  { key: 'jwtRequired', env: 'JWT_REQUIRED', parse: boolean, fallback: () => JWT_DEFAULTS.required },
  {
    key: 'jwtClaimHeaders',
    env: 'JWT_CLAIM_HEADERS',
    parse: pairs(nonEmpty, 'claim:header'),
    fallback: () => ({ sub: 'x-user-id' }),
  },
  { key: 'jwtHeader', env: 'JWT_HEADER', parse: nonEmpty, fallback: () => JWT_DEFAULTS.header },
  { key: 'jwtPrefix', env: 'JWT_PREFIX', parse: nonEmpty, fallback: () => JWT_DEFAULTS.scheme },
  { key: 'jwtCookie', env: 'JWT_COOKIE', parse: nonEmpty, fallback: none },
  {
    key: 'jwtClockToleranceSec',
    env: 'JWT_CLOCK_TOLERANCE_S',
    parse: integer(0, 600),
    fallback: () => JWT_DEFAULTS.clockToleranceSec,
  },
  {
    key: 'jwtJwksTimeoutMs',
    env: 'JWT_JWKS_TIMEOUT_MS',
    parse: integer(1, 60_000),
    fallback: () => JWT_DEFAULTS.jwksTimeoutMs,
  },
  {
    key: 'jwtJwksCooldownMs',
    env: 'JWT_JWKS_COOLDOWN_MS',
    parse: integer(0, 3_600_000),
    fallback: () => JWT_DEFAULTS.jwksCooldownMs,
  },
  {
    key: 'jwtJwksCacheMaxAgeMs',
    env: 'JWT_JWKS_CACHE_MAX_AGE_MS',
    parse: integer(1000, 86_400_000),
    fallback: () => JWT_DEFAULTS.jwksCacheMaxAgeMs,
  },
  { key: 'jwtForwardToken', env: 'JWT_FORWARD_TOKEN', parse: boolean, fallback: () => JWT_DEFAULTS.forwardToken },
  { key: 'apiKeys', env: 'API_KEYS', parse: apiKeys, fallback: () => [] },
  { key: 'apiKeyHeader', env: 'API_KEY_HEADER', parse: nonEmpty, fallback: () => API_KEY_DEFAULTS.header },
  {
    key: 'clientNameClaim',
    env: 'CLIENT_NAME_CLAIM',
    parse: nonEmpty,
    fallback: () => CLIENT_AWARENESS_DEFAULTS.nameClaim,
  },
  {
    key: 'clientVersionClaim',
    env: 'CLIENT_VERSION_CLAIM',
    parse: nonEmpty,
    fallback: () => CLIENT_AWARENESS_DEFAULTS.versionClaim,
  },
  { key: 'headerRules', env: 'HEADER_RULES', parse: json, fallback: none },
  {
    key: 'headerRulesMaxValueBytes',
    env: 'HEADER_RULES_MAX_VALUE_BYTES',
    parse: byteSize(1, 1024 ** 2),
    fallback: () => HEADER_RULES_DEFAULTS.maxValueBytes,
  },
  {
    key: 'headerRulesMaxTotalBytes',
    env: 'HEADER_RULES_MAX_TOTAL_BYTES',
    parse: byteSize(1, 1024 ** 2),
    fallback: () => HEADER_RULES_DEFAULTS.maxTotalBytes,
  },
  { key: 'responseHeaders', env: 'RESPONSE_HEADERS', parse: headerPairs, fallback: () => [] },
  { key: 'rateLimitMax', env: 'RATE_LIMIT_MAX', parse: integer(1, 1_000_000_000), fallback: () => 600 },
  { key: 'rateLimitWindowMs', env: 'RATE_LIMIT_WINDOW', parse: duration(100, 86_400_000), fallback: () => 60_000 },
  {
    key: 'rateLimitKey',
    env: 'RATE_LIMIT_KEY',
    parse: (raw) => (raw === 'operation' ? { ok: false, message: OPERATION_KEY_REMOVED } : oneOf(RATE_LIMIT_KEYS)(raw)),
    fallback: () => RATE_LIMIT_DEFAULTS.keyBy,
  },
  { key: 'rateLimitCost', env: 'RATE_LIMIT_COST', parse: oneOf(RATE_LIMIT_COSTS), fallback: () => 'request' },
  {
    key: 'rateLimitFailureMode',
    env: 'RATE_LIMIT_FAILURE_MODE',
    parse: oneOf(RATE_LIMIT_FAILURE_MODES),
    fallback: () => RATE_LIMIT_DEFAULTS.failureMode,
  },
  { key: 'redisUrl', env: 'REDIS_URL', parse: redisUrl, fallback: none },

  { key: 'trustedDocuments', env: 'TRUSTED_DOCUMENTS', parse: nonEmpty, fallback: none },
  // Its default depends on TRUSTED_DOCUMENTS: checkTrustedDocuments fills it in.
  { key: 'trustedDocumentsMode', env: 'TRUSTED_DOCUMENTS_MODE', parse: oneOf(TRUSTED_DOCUMENTS_MODES), fallback: none },
  { key: 'maxDepth', env: 'MAX_DEPTH', parse: integer(1, 1000), fallback: () => DEFAULT_OPERATION_LIMITS.maxDepth },
  {
    key: 'maxAliases',
    env: 'MAX_ALIASES',
    parse: integer(1, 10_000),
    fallback: () => DEFAULT_OPERATION_LIMITS.maxAliases,
  },
  {
    key: 'maxRootFields',
    env: 'MAX_ROOT_FIELDS',
    parse: integer(1, 10_000),
    fallback: () => DEFAULT_OPERATION_LIMITS.maxRootFields,
  },
  { key: 'maxTokens', env: 'MAX_TOKENS', parse: integer(10, 1_000_000), fallback: () => 5000 },
  {
    key: 'maxCharacters',
    env: 'MAX_CHARACTERS',
    parse: integer(10, 10_000_000),
    fallback: () => DEFAULT_OPERATION_LIMITS.maxCharacters,
  },
  {
    key: 'maxFields',
    env: 'MAX_FIELDS',
    parse: integer(1, 100_000),
    fallback: () => DEFAULT_OPERATION_LIMITS.maxFields,
  },
  { key: 'maxCost', env: 'MAX_COST', parse: integer(0, 1_000_000_000), fallback: () => DEFAULT_MAX_COST },
  { key: 'defaultListSize', env: 'DEFAULT_LIST_SIZE', parse: integer(0, 1_000_000), fallback: () => DEFAULT_LIST_SIZE },
  {
    key: 'maxResponseBytes',
    env: 'MAX_RESPONSE_BYTES',
    parse: byteSize(1024, 1024 ** 3),
    fallback: () => 10 * 1024 ** 2,
  },
  { key: 'inboundDeduplicate', env: 'INBOUND_DEDUPLICATE', parse: boolean, fallback: () => false },
  // Off: @apollo/gateway reports usage to Apollo only when an operator asks for it.
  { key: 'apolloTelemetry', env: 'APOLLO_TELEMETRY', parse: boolean, fallback: () => false },
];

export const SUBGRAPH_FIELDS: Record<string, { key: keyof SubgraphOverride; parse: ValueParser<unknown> }> = {
  URL: { key: 'url', parse: httpUrl },
  TIMEOUT_MS: { key: 'timeoutMs', parse: integer(1, 600_000) },
  MAX_RESPONSE_BYTES: { key: 'maxResponseBytes', parse: byteSize(1024, 1024 ** 3) },
  DEDUPLICATE: { key: 'deduplicate', parse: boolean },
  ...Object.fromEntries(RESILIENCE_FIELDS.map(({ suffix, key, parse }) => [suffix, { key, parse }])),
};
// No global setting (SUBGRAPH_RETRY_BUDGET) reads as `SUBGRAPH_<name>_<suffix>`: none is taken for an override.
export const SUBGRAPH_ENV = new RegExp(`^SUBGRAPH_([A-Z0-9_]+?)_(${Object.keys(SUBGRAPH_FIELDS).join('|')})$`);
