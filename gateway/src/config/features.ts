// Features that other settings turn on, for the one rule about a setting whose feature is off
// (ADR 016): set while its feature is off, it is reported at startup as a warning naming the
// setting and what turns the feature on, and startup goes on. Each setting names its feature in
// config/settings/; one without a feature always applies.

type Values = Readonly<Record<string, unknown>>;

export interface Feature {
  /** What turns it on, as an operator would set it. */
  readonly enabledBy: string;
  readonly isOn: (values: Values) => boolean;
}

const plugin = (name: string): Feature => ({
  enabledBy: `${name} in GATEWAY_PLUGINS`,
  isOn: (values) => ((values.plugins as string[] | undefined) ?? []).includes(name),
});

export const FEATURES = {
  jwt: plugin('jwt'),
  'api-key': plugin('api-key'),
  'client-awareness': plugin('client-awareness'),
  'header-rules': plugin('header-rules'),
  'response-headers': plugin('response-headers'),
  'rate-limit': plugin('rate-limit'),
  metrics: { enabledBy: 'METRICS_ENABLED=true', isOn: (values) => values['metrics.enabled'] === true },
  tracing: {
    enabledBy: 'OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), with OTEL_SDK_DISABLED not true',
    isOn: (values) =>
      values['tracing.sdkDisabled'] !== true &&
      (values['tracing.exporterOtlpEndpoint'] !== undefined ||
        values['tracing.exporterOtlpTracesEndpoint'] !== undefined),
  },
  subscriptions: {
    enabledBy: 'SUBSCRIPTIONS=true (the default)',
    isOn: (values) => values['subscriptions.enabled'] !== false,
  },
  compression: { enabledBy: 'COMPRESSION=true (the default)', isOn: (values) => values['http.compression'] !== false },
  'supergraph-url': { enabledBy: 'SUPERGRAPH_URL', isOn: (values) => values['supergraph.url'] !== undefined },
  retries: {
    enabledBy: 'SUBGRAPH_RETRIES above 0',
    isOn: (values) => (values['subgraphDefaults.retries'] as number) > 0,
  },
  'entity-cache': {
    enabledBy: 'ENTITY_CACHE=memory or redis',
    isOn: (values) => values['entityCache.store'] !== undefined && values['entityCache.store'] !== 'off',
  },
  'trusted-proxies': { enabledBy: 'TRUSTED_PROXIES', isOn: (values) => values.trustedProxies !== undefined },
  'circuit-breaker': {
    enabledBy: 'SUBGRAPH_CIRCUIT_BREAKER=true',
    isOn: (values) => values['subgraphDefaults.circuitBreaker'] === true,
  },
} as const satisfies Record<string, Feature>;

export type FeatureId = keyof typeof FEATURES;

/** Each explicitly set setting (by environment name) whose feature is off, with what turns it on. */
export function settingsWithoutTheirFeature(
  fields: readonly { readonly env: string; readonly feature?: FeatureId | undefined }[],
  explicit: ReadonlySet<string>,
  values: Values,
): { setting: string; message: string }[] {
  return fields.flatMap(({ env, feature }) => {
    if (!feature || !explicit.has(env) || FEATURES[feature].isOn(values)) return [];
    return [{ setting: env, message: `${env} has no effect: it needs ${FEATURES[feature].enabledBy}` }];
  });
}
