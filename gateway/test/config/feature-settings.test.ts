import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/config/features.js';
import { CONFIG_FIELDS, type ConfigWarning, parseConfig } from '../../src/config/parse.js';

// One rule for a setting whose feature is off (ADR 016): a warning naming the setting and what
// turns the feature on, and startup goes on. Tested over every such setting.

const cwd = '/srv/gateway';
/** A valid value for each setting that tunes a feature. */
const SAMPLE: Readonly<Record<string, string>> = {
  JWT_JWKS_URL: 'https://idp.example.com/jwks.json',
  JWT_JWKS_FILE: 'jwks.json',
  JWT_SECRET: 's'.repeat(32),
  JWT_ISSUER: 'https://idp.example.com/',
  JWT_AUDIENCE: 'api',
  JWT_ALGORITHMS: 'RS256',
  JWT_REQUIRED: 'false',
  JWT_CLAIM_HEADERS: 'sub:x-user-id',
  JWT_HEADER: 'authorization',
  JWT_PREFIX: 'Bearer',
  JWT_COOKIE: 'session',
  JWT_CLOCK_TOLERANCE_S: '10',
  JWT_JWKS_TIMEOUT_MS: '1000',
  JWT_JWKS_COOLDOWN_MS: '1000',
  JWT_JWKS_CACHE_MAX_AGE_MS: '60000',
  JWT_FORWARD_TOKEN: 'true',
  GATEWAY_API_KEYS: 'app:a-key',
  GATEWAY_API_KEY_HEADER: 'x-key',
  CLIENT_AWARENESS_NAME_CLAIM: 'azp',
  CLIENT_AWARENESS_VERSION_CLAIM: 'ver',
  GATEWAY_HEADER_RULES: '{"all":[]}',
  GATEWAY_HEADER_RULES_MAX_VALUE_BYTES: '2kb',
  GATEWAY_HEADER_RULES_MAX_TOTAL_BYTES: '4kb',
  GATEWAY_RESPONSE_HEADERS: 'x-served-by:gateway',
  RATE_LIMIT_MAX: '10',
  RATE_LIMIT_WINDOW: '1s',
  RATE_LIMIT_KEY: 'global',
  RATE_LIMIT_COST: 'estimated',
  RATE_LIMIT_FAILURE_MODE: 'closed',
  GATEWAY_REDIS_URL: 'redis://127.0.0.1:6379',
  ENTITY_CACHE_MAX_BYTES: '2mb',
  ENTITY_CACHE_MAX_ENTRY_BYTES: '64kb',
  ENTITY_CACHE_TTL_DEFAULT: '10s',
  ENTITY_CACHE_TTL_SUBGRAPHS: 'products:60s',
  ENTITY_CACHE_TTL_TYPES: 'Product:30s',
  ENTITY_CACHE_MAX_TTL: '5m',
  ENTITY_CACHE_CLIENT_WRITE_BYTES: '1mb',
  ENTITY_CACHE_CLIENT_WRITE_WINDOW: '30s',
  ENTITY_CACHE_SHARED_PUBLIC_SUBGRAPHS: 'products',
  ENTITY_CACHE_REDIS_URL: 'redis://127.0.0.1:6380',
  ENTITY_CACHE_INVALIDATION_TOKEN: 'operator-token',
  SHADOW_SAMPLE: '0.5',
  SHADOW_TIMEOUT_MS: '1s',
  SHADOW_MAX_CONCURRENCY: '2',
  SHADOW_MAX_RESPONSE_BYTES: '64kb',
  SHADOW_FORWARD_HEADERS: 'x-tenant',
  SHADOW_LOG_VALUES: 'true',
  SHADOW_UNORDERED_PATHS: 'topProducts',
  SHADOW_IGNORE_PATHS: 'me.lastSeen',
  METRICS_PORT: '9464',
  METRICS_PATH: '/m',
  METRICS_MAX_OPERATION_NAMES: '5',
  METRICS_OPERATION_NAME_MIN_COUNT: '2',
  OTEL_SERVICE_NAME: 'gw',
  OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_PROPAGATORS: 'b3',
  OTEL_EXPORTER_OTLP_HEADERS: 'x-key=secret-value',
  OTEL_TRACES_SAMPLER: 'always_on',
  OTEL_TRACES_SAMPLER_ARG: '0.5',
  SUPERGRAPH_URL_TIMEOUT_MS: '1000',
  SUPERGRAPH_URL_MAX_BYTES: '1mb',
  SUBGRAPH_RETRY_BACKOFF_MS: '10',
  SUBGRAPH_RETRY_BUDGET: '0.5',
  SUBGRAPH_RETRY_MIN_PER_SEC: '1',
  SUBGRAPH_CIRCUIT_FAILURE_RATE: '0.9',
  UPLOAD_MAX_FILES: '3',
  UPLOAD_MAX_FILE_BYTES: '1mb',
  UPLOAD_IDLE_TIMEOUT_MS: '5000',
  UPLOAD_MAX_PER_CLIENT: '3',
  SUBGRAPH_CIRCUIT_MIN_REQUESTS: '5',
  SUBGRAPH_CIRCUIT_COOLDOWN_MS: '1000',
  SUBSCRIPTION_MAX_CONNECTIONS: '100',
  SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT: '10',
  SUBSCRIPTION_MAX_PER_CONNECTION: '5',
  SUBSCRIPTION_MAX_PER_CLIENT: '10',
  SUBSCRIPTION_MAX_BUFFERED_EVENTS: '20',
  SUBSCRIPTION_DEDUPLICATE: 'false',
  SUBSCRIPTION_HEARTBEAT_MS: '5000',
  SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS: '1000',
  SUBSCRIPTION_IDLE_TIMEOUT_MS: '10000',
  SUBSCRIPTION_MULTIPART_HEARTBEAT_MS: '2000',
  SUBSCRIPTION_MAX_OPEN: '1000',
  SUBSCRIPTION_SLOW_CLIENT: 'drop-oldest',
  CLIENT_ADDRESS_HEADER: 'forwarded',
  COMPRESSION_MIN_BYTES: '2048',
  SHED_CLASS_RULES: 'client:nightly=batch',
  SHED_DEFAULT_CLASS: 'web',
  SHED_MAX_IN_FLIGHT: '10',
  SHED_MAX_EVENT_LOOP_DELAY_MS: '50',
  SHED_EVENT_LOOP_SAMPLE_MS: '200',
  SHED_STEP_PERCENT: '50',
  SHED_RETRY_AFTER_S: '5',
};
/** What turns each feature off where its default is on. */
const OFF: Readonly<Record<string, Record<string, string>>> = {
  'SUBGRAPH_RETRIES above 0': { SUBGRAPH_RETRIES: '0' },
  'SUBGRAPH_CIRCUIT_BREAKER=true': { SUBGRAPH_CIRCUIT_BREAKER: 'false' },
  'SUBSCRIPTIONS=true (the default)': { SUBSCRIPTIONS: 'false' },
  'COMPRESSION=true (the default)': { COMPRESSION: 'false' },
};

const warningsFor = (env: Record<string, string>) => {
  const warnings: ConfigWarning[] = [];
  parseConfig(env, { cwd, onWarning: (warning) => warnings.push(warning) });
  return warnings;
};

describe('settings of a feature that is off', () => {
  it('the settings that tune a feature are the ones with a sample here (a new one must say which it is)', () => {
    const tuning = CONFIG_FIELDS.filter((field) => field.feature).map((field) => field.env);
    expect(tuning.sort()).toEqual(Object.keys(SAMPLE).sort());
  });

  const cases = CONFIG_FIELDS.flatMap((field) =>
    field.feature ? [[field.env, FEATURES[field.feature].enabledBy] as const] : [],
  );
  it.each(cases)('%s without %s: starts, with one warning naming both (never the value)', (setting, enabledBy) => {
    const value = SAMPLE[setting] as string;
    const warnings = warningsFor({ ...OFF[enabledBy], [setting]: value });
    expect(warnings).toEqual([{ setting, message: `${setting} has no effect: it needs ${enabledBy}` }]);
    expect(JSON.stringify(warnings)).not.toContain(value.length > 4 ? value : '\u0000');
  });

  it('with its feature on, the same setting says nothing', () => {
    expect(warningsFor({ METRICS_ENABLED: 'true', METRICS_PORT: '9464' })).toEqual([]);
    expect(warningsFor({ GATEWAY_PLUGINS: 'rate-limit', RATE_LIMIT_MAX: '10' })).toEqual([]);
    expect(warningsFor({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SERVICE_NAME: 'gw' })).toEqual([]);
  });
});
