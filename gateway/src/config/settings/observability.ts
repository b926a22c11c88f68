import { METRICS_VALUES } from '../../plugins/metrics/settings.js';
import { OTEL_VALUES } from '../../plugins/tracing/settings.js';
import { boolean, withDefault } from '../../settings/kinds.js';

import { defineFields } from './spec.js';

/** Prometheus metrics and OpenTelemetry tracing. */
export const OBSERVABILITY_FIELDS = defineFields([
  {
    key: 'metrics.enabled',
    formerKey: 'metricsEnabled',
    env: 'METRICS_ENABLED',
    parse: withDefault(boolean, false),
    meaning: 'Prometheus metrics; see [Metrics](operations.md#metrics-prometheus)',
  },
  {
    key: 'metrics.port',
    formerKey: 'metricsPort',
    env: 'METRICS_PORT',
    parse: METRICS_VALUES.port,
    meaning:
      'set: metrics are served only on a listener of their own on this port (keep them off the public port); must differ from `GATEWAY_LISTEN_PORT`. Unset: on the main port',
    feature: 'metrics',
  },
  {
    key: 'metrics.path',
    formerKey: 'metricsPath',
    env: 'METRICS_PATH',
    parse: METRICS_VALUES.path,
    meaning: 'where metrics are served',
    feature: 'metrics',
  },
  {
    key: 'metrics.maxOperationNames',
    formerKey: 'metricsMaxOperationNames',
    env: 'METRICS_MAX_OPERATION_NAMES',
    parse: METRICS_VALUES.maxOperationNames,
    meaning:
      'most operation names that hold a label value of their own (earned: see METRICS_OPERATION_NAME_MIN_COUNT); the rest are `__other`',
    feature: 'metrics',
  },
  {
    key: 'metrics.operationNameMinCount',
    formerKey: 'metricsOperationNameMinCount',
    env: 'METRICS_OPERATION_NAME_MIN_COUNT',
    parse: METRICS_VALUES.operationNameMinCount,
    meaning:
      'requests (validated, not refused) an operation name must be seen in before it takes one of the `METRICS_MAX_OPERATION_NAMES` label values; until then `__other`. Trusted-document operations need none; see [the operation-name label](operations.md#the-operation-name-label)',
    feature: 'metrics',
  },

  // OpenTelemetry's standard variables (tracing is on when an OTLP endpoint is set).
  {
    key: 'tracing.sdkDisabled',
    formerKey: 'otelSdkDisabled',
    env: 'OTEL_SDK_DISABLED',
    parse: OTEL_VALUES.sdkDisabled,
    meaning: '`true` turns tracing off whatever else is set',
  },
  {
    key: 'tracing.serviceName',
    formerKey: 'otelServiceName',
    env: 'OTEL_SERVICE_NAME',
    parse: OTEL_VALUES.serviceName,
    meaning:
      'the `service.name` resource attribute; unset: the `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `graphql-gateway`',
    docDefault: 'see meaning',
    feature: 'tracing',
  },
  {
    key: 'tracing.resourceAttributes',
    formerKey: 'otelResourceAttributes',
    env: 'OTEL_RESOURCE_ATTRIBUTES',
    parse: OTEL_VALUES.resourceAttributes,
    meaning: 'more resource attributes, `key=value,key=value` (`deployment.environment=prod`)',
    feature: 'tracing',
  },
  {
    key: 'tracing.exporterOtlpEndpoint',
    formerKey: 'otelExporterOtlpEndpoint',
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    parse: OTEL_VALUES.exporterOtlpEndpoint,
    meaning:
      'turns [tracing](operations.md#tracing-opentelemetry) on: the OTLP/HTTP base URL (spans go to `<base>/v1/traces`), or the collector over gRPC; unset (and no traces endpoint): no tracing, the SDK is not even loaded',
  },
  {
    key: 'tracing.exporterOtlpTracesEndpoint',
    formerKey: 'otelExporterOtlpTracesEndpoint',
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    parse: OTEL_VALUES.exporterOtlpTracesEndpoint,
    meaning:
      'the full traces URL, used as it is; wins over `OTEL_EXPORTER_OTLP_ENDPOINT` (either one turns tracing on)',
  },
  {
    key: 'tracing.exporterOtlpProtocol',
    formerKey: 'otelExporterOtlpProtocol',
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    parse: OTEL_VALUES.exporterOtlpProtocol,
    meaning:
      '`http/protobuf`, `http/json` or `grpc` (then the endpoint names the collector, `http://collector:4317`; `https://` for TLS)',
    feature: 'tracing',
  },
  {
    key: 'tracing.propagators',
    formerKey: 'otelPropagators',
    env: 'OTEL_PROPAGATORS',
    parse: OTEL_VALUES.propagators,
    meaning:
      "trace context read from requests and sent to subgraphs: a list of `tracecontext`, `baggage`, `b3` (single header), `b3multi`, or `none`. Not the spec's `tracecontext,baggage` default: `baggage` hands subgraphs what clients wrote in it; see [Tracing](operations.md#propagation)",
    feature: 'tracing',
  },
  {
    key: 'tracing.exporterOtlpHeaders',
    formerKey: 'otelExporterOtlpHeaders',
    env: 'OTEL_EXPORTER_OTLP_HEADERS',
    parse: OTEL_VALUES.exporterOtlpHeaders,
    meaning:
      'headers sent with every export, `name=value,name=value` (values percent-encoded): a secret, never logged or shown in config errors',
    feature: 'tracing',
  },
  {
    key: 'tracing.tracesSampler',
    formerKey: 'otelTracesSampler',
    env: 'OTEL_TRACES_SAMPLER',
    parse: OTEL_VALUES.tracesSampler,
    meaning:
      '`always_on`, `always_off`, `traceidratio`, `parentbased_always_on`, `parentbased_always_off`, `parentbased_traceidratio`',
    feature: 'tracing',
  },
  {
    key: 'tracing.tracesSamplerArg',
    formerKey: 'otelTracesSamplerArg',
    env: 'OTEL_TRACES_SAMPLER_ARG',
    parse: OTEL_VALUES.tracesSamplerArg,
    meaning:
      'the ratio (0 to 1) of the two `traceidratio` samplers; unset: 1. Set with another sampler, it fails startup (it would change nothing)',
    feature: 'tracing',
  },
]);
