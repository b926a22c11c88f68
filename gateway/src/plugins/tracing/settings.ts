// The OpenTelemetry settings the config parser reads (the standard OTEL_* variables) and
// what they resolve to. Pure: importing this loads no part of the OpenTelemetry SDK.

import * as v from 'valibot';
import {
  boolean,
  type ConfigIssue,
  custom,
  defaultsOf,
  httpUrl,
  list,
  nonEmpty,
  oneOf,
  type Parsed,
  readValue,
  type SettingsOf,
  type ValueParser,
  withDefault,
} from '../../plugin-sdk/index.js';

/** The samplers of the OpenTelemetry spec this gateway builds (OTEL_TRACES_SAMPLER). */
export const OTEL_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type OtelSampler = (typeof OTEL_SAMPLERS)[number];

/** OTLP over HTTP (protobuf or JSON) or over gRPC (OTEL_EXPORTER_OTLP_PROTOCOL). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/**
 * The propagators of the spec this gateway builds (OTEL_PROPAGATORS): W3C trace context and
 * baggage, Zipkin's B3 in its single-header and multi-header forms; `none` propagates nothing.
 */
export const OTEL_PROPAGATORS = ['tracecontext', 'baggage', 'b3', 'b3multi', 'none'] as const;
export type OtelPropagator = (typeof OTEL_PROPAGATORS)[number];

const RATIO_SAMPLERS: readonly OtelSampler[] = ['traceidratio', 'parentbased_traceidratio'];

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });

/**
 * `key=value,key=value` with percent-encoded values, as the spec writes OTEL_RESOURCE_ATTRIBUTES
 * and OTEL_EXPORTER_OTLP_HEADERS (or a JSON object of strings in the config file).
 */
function keyValueList(what: string, validKey: (key: string) => boolean): ValueParser<Record<string, string>> {
  const expected = `expected ${what}=value pairs separated by commas`;
  return custom(`${what}=value pairs separated by commas`, (raw) => {
    const entries: [string, unknown][] = [];
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) entries.push(...Object.entries(raw));
    else if (typeof raw === 'string') {
      for (const part of raw.split(',')) {
        if (part.trim() === '') continue;
        const at = part.indexOf('=');
        if (at <= 0) return fail(expected);
        try {
          entries.push([part.slice(0, at).trim(), decodeURIComponent(part.slice(at + 1).trim())]);
        } catch {
          return fail(`${expected} (bad percent-encoding)`);
        }
      }
    } else return fail(expected);
    const result: Record<string, string> = {};
    for (const [key, value] of entries) {
      if (!validKey(key) || typeof value !== 'string' || /[\r\n]/.test(value)) return fail(expected);
      result[key] = value;
    }
    return ok(result);
  });
}

/** OTEL_RESOURCE_ATTRIBUTES: `deployment.environment=prod,service.version=1.2`. */
export const resourceAttributes = keyValueList('key', (key) => /^[\x21-\x7e]+$/.test(key) && !key.includes('='));

/** OTEL_EXPORTER_OTLP_HEADERS: a secret (it usually holds an API key): its errors never show it. */
export const exporterHeaders: ValueParser<Record<string, string>> = custom(
  'header=value pairs separated by commas',
  (raw) => {
    const parsed = readValue(
      keyValueList('header', (key) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)),
      raw,
    );
    return parsed.ok ? parsed : fail(`${parsed.message} (value not shown: it is a secret)`);
  },
);

/** OTEL_TRACES_SAMPLER_ARG for the ratio samplers: a probability. */
export const samplerRatio: ValueParser<number> = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty(), v.transform(Number))]),
  v.finite(),
  v.minValue(0),
  v.maxValue(1),
  v.description('a sampling ratio from 0 to 1'),
);

/**
 * The spec's defaults, and ours for the service name. OTEL_SERVICE_NAME and
 * OTEL_TRACES_SAMPLER_ARG are read without theirs: unset, they are resolved from other
 * settings (the resource attributes, the sampler) before these apply.
 */
export const TRACING_VALUES = Object.freeze({
  serviceName: withDefault(nonEmpty, 'graphql-gateway'),
  sampler: withDefault(oneOf(OTEL_SAMPLERS), 'parentbased_always_on'),
  protocol: withDefault(oneOf(OTLP_PROTOCOLS), 'http/protobuf'),
  /** For the ratio samplers when OTEL_TRACES_SAMPLER_ARG is unset. */
  ratio: withDefault(samplerRatio, 1),
  /**
   * Not the spec's `tracecontext,baggage`: at the edge, `baggage` would hand every subgraph
   * whatever entries a client wrote (`tenant=admin`), so it is the operator's choice (ADR 034).
   */
  propagators: withDefault(list(oneOf(OTEL_PROPAGATORS)), ['tracecontext']),
});
export const TRACING_DEFAULTS = defaultsOf(TRACING_VALUES);

/**
 * The `tracing` group's schemas, by config name: the standard OTEL_* variables named without
 * `OTEL_` (`exporterOtlpEndpoint`), which the config parses them with. Tracing is on when an OTLP
 * endpoint is set. `serviceName` and `tracesSamplerArg` have no default of their own: unset, they
 * are resolved from the resource attributes and the sampler (tracingSettings).
 */
export const OTEL_VALUES = Object.freeze({
  sdkDisabled: withDefault(boolean, false),
  serviceName: nonEmpty,
  resourceAttributes: withDefault(resourceAttributes, {}),
  exporterOtlpEndpoint: httpUrl,
  exporterOtlpTracesEndpoint: httpUrl,
  exporterOtlpProtocol: TRACING_VALUES.protocol,
  propagators: TRACING_VALUES.propagators,
  exporterOtlpHeaders: withDefault(exporterHeaders, {}),
  tracesSampler: TRACING_VALUES.sampler,
  tracesSamplerArg: samplerRatio,
});
type TracingGroup = SettingsOf<typeof OTEL_VALUES>;

/** What tracing reads of the configuration (a GatewayConfig is one): its `tracing` group. */
export interface TracingConfig {
  readonly tracing: TracingGroup;
}

/**
 * An argument for a sampler that reads none would silently change nothing (a ratio of
 * 0.01 with the default `parentbased_always_on` samples everything), so it is an error.
 * The `tracing` group's rule (ADR 052), on its typed settings once every default is filled in.
 */
export function checkTracingConfig({ tracing: values }: TracingConfig, issues: ConfigIssue[]): void {
  // Tracing off: its settings are reported as warnings instead (config/features.ts).
  const on =
    values.sdkDisabled !== true &&
    (values.exporterOtlpEndpoint !== undefined || values.exporterOtlpTracesEndpoint !== undefined);
  if (!on) return;
  const { propagators, tracesSampler: sampler } = values;
  if (propagators.includes('none') && propagators.length > 1) {
    issues.push({ field: 'OTEL_PROPAGATORS', message: '`none` cannot be combined with other propagators' });
  }
  if (values.tracesSamplerArg !== undefined && !RATIO_SAMPLERS.includes(sampler)) {
    issues.push({
      field: 'OTEL_TRACES_SAMPLER_ARG',
      message: `only read by ${RATIO_SAMPLERS.join(' and ')}; OTEL_TRACES_SAMPLER is ${sampler}`,
    });
  }
}

/** What the SDK is built from; `undefined` when tracing is off. */
export interface TracingSettings {
  /** Where spans are sent: `…/v1/traces` over HTTP; the collector's address (`http://host:4317`) over gRPC. */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  /** Empty: none (`OTEL_PROPAGATORS=none`). */
  readonly propagators: readonly Exclude<OtelPropagator, 'none'>[];
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: OtelSampler;
  /** The ratio of the ratio samplers (ignored by the others). */
  readonly ratio: number;
}

/**
 * Tracing is on when an OTLP endpoint is configured and OTEL_SDK_DISABLED is not true.
 * As the spec says, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as it is, while over HTTP
 * OTEL_EXPORTER_OTLP_ENDPOINT is a base to which `v1/traces` is appended (over gRPC it names
 * the collector, the method is in the protocol); OTEL_SERVICE_NAME wins over a `service.name`
 * in OTEL_RESOURCE_ATTRIBUTES.
 */
export function tracingSettings({ tracing: config }: TracingConfig): TracingSettings | undefined {
  if (config.sdkDisabled) return undefined;
  const base = config.exporterOtlpEndpoint;
  const grpc = config.exporterOtlpProtocol === 'grpc';
  const url =
    config.exporterOtlpTracesEndpoint ?? (base === undefined || grpc ? base : `${base.replace(/\/*$/, '')}/v1/traces`);
  if (url === undefined) return undefined;
  return {
    url,
    protocol: config.exporterOtlpProtocol,
    propagators: config.propagators.filter((name) => name !== 'none'),
    headers: config.exporterOtlpHeaders,
    serviceName: config.serviceName ?? config.resourceAttributes['service.name'] ?? TRACING_DEFAULTS.serviceName,
    resourceAttributes: config.resourceAttributes,
    sampler: config.tracesSampler,
    ratio: config.tracesSamplerArg ?? TRACING_DEFAULTS.ratio,
  };
}
