// Features that other settings turn on, for the one rule about a setting whose feature is off
// (ADR 016): set while its feature is off, it is reported at startup as a warning naming the
// setting and what turns the feature on, and startup goes on. Each setting names its feature in
// config/settings/; one without a feature always applies.

/**
 * What the features' switches read of the config, typed: the parsed settings, once every default is
 * filled in (the config's type is checked to be one in settings/all.ts; declared here, not imported,
 * because each setting's spec names its feature, so importing the config's type would be a cycle).
 */
export interface FeatureSwitches {
  readonly plugins: readonly string[];
  readonly metrics: { readonly enabled: boolean };
  readonly tracing: {
    readonly sdkDisabled: boolean;
    readonly exporterOtlpEndpoint?: string;
    readonly exporterOtlpTracesEndpoint?: string;
  };
  readonly subscriptions: { readonly enabled: boolean };
  readonly uploads: { readonly enabled: boolean };
  readonly http: { readonly compression: boolean };
  readonly supergraph: { readonly url?: string };
  readonly subgraphDefaults: { readonly retries: number; readonly circuitBreaker: boolean };
  readonly entityCache: { readonly store: string };
  readonly shedding: { readonly classes: Readonly<Record<string, number>> };
  readonly trustedProxies?: unknown;
  readonly shadow: { readonly url?: string; readonly supergraph?: string };
}

export interface Feature {
  /** What turns it on, as an operator would set it. */
  readonly enabledBy: string;
  readonly isOn: (config: FeatureSwitches) => boolean;
}

const plugin = (name: string): Feature => ({
  enabledBy: `${name} in GATEWAY_PLUGINS`,
  isOn: (config) => config.plugins.includes(name),
});

export const FEATURES = {
  jwt: plugin('jwt'),
  'api-key': plugin('api-key'),
  'client-awareness': plugin('client-awareness'),
  'header-rules': plugin('header-rules'),
  'response-headers': plugin('response-headers'),
  'rate-limit': plugin('rate-limit'),
  metrics: { enabledBy: 'METRICS_ENABLED=true', isOn: (config) => config.metrics.enabled },
  tracing: {
    enabledBy: 'OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), with OTEL_SDK_DISABLED not true',
    isOn: ({ tracing }) =>
      !tracing.sdkDisabled &&
      (tracing.exporterOtlpEndpoint !== undefined || tracing.exporterOtlpTracesEndpoint !== undefined),
  },
  subscriptions: {
    enabledBy: 'SUBSCRIPTIONS=true (the default)',
    isOn: (config) => config.subscriptions.enabled,
  },
  uploads: { enabledBy: 'UPLOADS=true', isOn: (config) => config.uploads.enabled },
  compression: { enabledBy: 'COMPRESSION=true (the default)', isOn: (config) => config.http.compression },
  'supergraph-url': { enabledBy: 'SUPERGRAPH_URL', isOn: (config) => config.supergraph.url !== undefined },
  retries: {
    enabledBy: 'SUBGRAPH_RETRIES above 0',
    isOn: (config) => config.subgraphDefaults.retries > 0,
  },
  'entity-cache': {
    enabledBy: 'ENTITY_CACHE=memory or redis',
    isOn: (config) => config.entityCache.store !== 'off',
  },
  'load-shedding': {
    enabledBy: 'SHED_CLASSES',
    isOn: (config) => Object.keys(config.shedding.classes).length > 0,
  },
  'trusted-proxies': { enabledBy: 'TRUSTED_PROXIES', isOn: (config) => config.trustedProxies !== undefined },
  shadow: {
    enabledBy: 'SHADOW_URL or SHADOW_SUPERGRAPH',
    isOn: ({ shadow }) => shadow.url !== undefined || shadow.supergraph !== undefined,
  },
  'circuit-breaker': {
    enabledBy: 'SUBGRAPH_CIRCUIT_BREAKER=true',
    isOn: (config) => config.subgraphDefaults.circuitBreaker,
  },
} as const satisfies Record<string, Feature>;

export type FeatureId = keyof typeof FEATURES;

/** Each explicitly set setting (by environment name) whose feature is off, with what turns it on. */
export function settingsWithoutTheirFeature(
  fields: readonly { readonly env: string; readonly feature?: FeatureId | undefined }[],
  explicit: ReadonlySet<string>,
  config: FeatureSwitches,
): { setting: string; message: string }[] {
  return fields.flatMap(({ env, feature }) => {
    if (!feature || !explicit.has(env) || FEATURES[feature].isOn(config)) return [];
    return [{ setting: env, message: `${env} has no effect: it needs ${FEATURES[feature].enabledBy}` }];
  });
}
