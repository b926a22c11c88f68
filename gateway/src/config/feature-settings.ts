// Settings that tune a feature which another setting turns on. One rule for all of them
// (ADR 016): set while their feature is off, each is reported at startup as a warning naming
// the setting and what turns the feature on, and startup goes on. Every setting is declared
// here, either under its feature or as one that always applies; a test holds the list to
// CONFIG_FIELDS, so a new setting must say which it is.

type Values = Readonly<Record<string, unknown>>;

export interface Feature {
  /** What turns it on, as an operator would set it. */
  readonly enabledBy: string;
  readonly isOn: (values: Values) => boolean;
  /** Environment names of the settings that only tune it. */
  readonly settings: readonly string[];
}

const plugin = (name: string) => (values: Values) => ((values.plugins as string[] | undefined) ?? []).includes(name);

export const FEATURES: readonly Feature[] = [
  {
    enabledBy: 'jwt in GATEWAY_PLUGINS',
    isOn: plugin('jwt'),
    settings: [
      'JWT_JWKS_URL',
      'JWT_JWKS_FILE',
      'JWT_SECRET',
      'JWT_ISSUER',
      'JWT_AUDIENCE',
      'JWT_ALGORITHMS',
      'JWT_REQUIRED',
      'JWT_CLAIM_HEADERS',
      'JWT_HEADER',
      'JWT_PREFIX',
      'JWT_COOKIE',
      'JWT_CLOCK_TOLERANCE_S',
      'JWT_JWKS_TIMEOUT_MS',
      'JWT_JWKS_COOLDOWN_MS',
      'JWT_JWKS_CACHE_MAX_AGE_MS',
      'JWT_FORWARD_TOKEN',
    ],
  },
  { enabledBy: 'api-key in GATEWAY_PLUGINS', isOn: plugin('api-key'), settings: ['API_KEYS', 'API_KEY_HEADER'] },
  {
    enabledBy: 'client-awareness in GATEWAY_PLUGINS',
    isOn: plugin('client-awareness'),
    settings: ['CLIENT_NAME_CLAIM', 'CLIENT_VERSION_CLAIM'],
  },
  {
    enabledBy: 'header-rules in GATEWAY_PLUGINS',
    isOn: plugin('header-rules'),
    settings: ['HEADER_RULES', 'HEADER_RULES_MAX_VALUE_BYTES', 'HEADER_RULES_MAX_TOTAL_BYTES'],
  },
  {
    enabledBy: 'response-headers in GATEWAY_PLUGINS',
    isOn: plugin('response-headers'),
    settings: ['RESPONSE_HEADERS'],
  },
  {
    enabledBy: 'rate-limit in GATEWAY_PLUGINS',
    isOn: plugin('rate-limit'),
    settings: [
      'RATE_LIMIT_MAX',
      'RATE_LIMIT_WINDOW',
      'RATE_LIMIT_KEY',
      'RATE_LIMIT_COST',
      'RATE_LIMIT_FAILURE_MODE',
      'REDIS_URL',
    ],
  },
  {
    enabledBy: 'METRICS_ENABLED=true',
    isOn: (values) => values.metricsEnabled === true,
    settings: ['METRICS_PORT', 'METRICS_PATH', 'METRICS_MAX_OPERATION_NAMES', 'METRICS_OPERATION_NAME_MIN_COUNT'],
  },
  {
    enabledBy: 'OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), with OTEL_SDK_DISABLED not true',
    isOn: (values) =>
      values.otelSdkDisabled !== true &&
      (values.otelExporterOtlpEndpoint !== undefined || values.otelExporterOtlpTracesEndpoint !== undefined),
    settings: [
      'OTEL_SERVICE_NAME',
      'OTEL_RESOURCE_ATTRIBUTES',
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      'OTEL_EXPORTER_OTLP_HEADERS',
      'OTEL_TRACES_SAMPLER',
      'OTEL_TRACES_SAMPLER_ARG',
    ],
  },
  {
    enabledBy: 'SUPERGRAPH_URL',
    isOn: (values) => values.supergraphUrl !== undefined,
    settings: ['SUPERGRAPH_URL_TIMEOUT_MS', 'SUPERGRAPH_URL_MAX_BYTES'],
  },
  {
    enabledBy: 'SUBGRAPH_RETRIES above 0',
    isOn: (values) => (values.subgraphRetries as number) > 0,
    settings: ['SUBGRAPH_RETRY_BACKOFF_MS', 'SUBGRAPH_RETRY_BUDGET', 'SUBGRAPH_RETRY_MIN_PER_SEC'],
  },
  {
    enabledBy: 'SUBGRAPH_CIRCUIT_BREAKER=true',
    isOn: (values) => values.subgraphCircuitBreaker === true,
    settings: ['SUBGRAPH_CIRCUIT_FAILURE_RATE', 'SUBGRAPH_CIRCUIT_MIN_REQUESTS', 'SUBGRAPH_CIRCUIT_COOLDOWN_MS'],
  },
];

/** Settings that apply whatever else is set: switches that turn features on, and the core's own. */
export const ALWAYS_APPLIED: readonly string[] = [
  'GATEWAY_ENV',
  'GATEWAY_RUNTIME',
  'GATEWAY_ADAPTER',
  'GATEWAY_WORKERS',
  'HOST',
  'PORT',
  'GRAPHQL_PATH',
  'SUPERGRAPH_PATH',
  'SUPERGRAPH_URL',
  'SUPERGRAPH_POLL_INTERVAL_MS',
  'SUBGRAPH_TIMEOUT_MS',
  'SUBGRAPH_POOL_CONNECTIONS',
  'SUBGRAPH_KEEP_ALIVE_MS',
  'SUBGRAPH_MAX_RESPONSE_BYTES',
  'SUBGRAPH_DEDUPLICATE',
  'SUBGRAPH_DEDUPLICATE_REPRESENTATIONS',
  'SUBGRAPH_RETRIES',
  'SUBGRAPH_CIRCUIT_BREAKER',
  'BODY_LIMIT',
  'REQUEST_TIMEOUT_MS',
  'HEADERS_TIMEOUT_MS',
  'KEEP_ALIVE_TIMEOUT_MS',
  'STALLED_WRITE_TIMEOUT_MS',
  'INTROSPECTION',
  'LANDING_PAGE',
  'MASK_ERRORS',
  'SHUTDOWN_GRACE_MS',
  'SHUTDOWN_DELAY_MS',
  'LOG_LEVEL',
  'LOG_PRETTY',
  'METRICS_ENABLED',
  'OTEL_SDK_DISABLED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'GATEWAY_PLUGINS',
  'TRUSTED_DOCUMENTS',
  'TRUSTED_DOCUMENTS_MODE',
  'MAX_DEPTH',
  'MAX_ALIASES',
  'MAX_ROOT_FIELDS',
  'MAX_TOKENS',
  'MAX_CHARACTERS',
  'MAX_FIELDS',
  'MAX_COST',
  'DEFAULT_LIST_SIZE',
  'MAX_RESPONSE_BYTES',
  'INBOUND_DEDUPLICATE',
  'APOLLO_TELEMETRY',
];

/** Each explicitly set setting (by environment name) whose feature is off, with what turns it on. */
export function settingsWithoutTheirFeature(
  explicit: ReadonlySet<string>,
  values: Values,
): { setting: string; message: string }[] {
  return FEATURES.filter((feature) => !feature.isOn(values)).flatMap((feature) =>
    feature.settings
      .filter((setting) => explicit.has(setting))
      .map((setting) => ({ setting, message: `${setting} has no effect: it needs ${feature.enabledBy}` })),
  );
}
