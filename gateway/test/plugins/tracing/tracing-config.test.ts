import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/parse.js';
import { GatewayConfigError } from '../../../src/errors.js';
import { tracingSettings } from '../../../src/plugins/tracing/settings.js';

const parse = (env: Record<string, string>) => parseConfig(env, { cwd: '/srv/gateway' });
const settings = (env: Record<string, string>) => tracingSettings(parse(env));
const problems = (env: Record<string, string>): string[] => {
  try {
    parse(env);
  } catch (error) {
    if (error instanceof GatewayConfigError) return error.issues.map((issue) => `${issue.field}: ${issue.message}`);
    throw error;
  }
  return [];
};

describe('tracing settings (OTEL_*)', () => {
  it('is off without an OTLP endpoint, and when OTEL_SDK_DISABLED is true', () => {
    expect(settings({})).toBeUndefined();
    expect(settings({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(
      settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
  });

  it("has the spec's defaults: http/protobuf, parentbased_always_on, ratio 1; our service name", () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      serviceName: 'graphql-gateway',
      resourceAttributes: {},
      sampler: 'parentbased_always_on',
      ratio: 1,
      propagators: ['tracecontext'],
    });
  });

  it('over gRPC the endpoint names the collector as it is; OTEL_PROPAGATORS is read, `none` empties it', () => {
    const grpc = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
    expect(settings(grpc)).toMatchObject({ url: 'http://collector:4317/', protocol: 'grpc' });
    expect(settings({ ...grpc, OTEL_PROPAGATORS: 'tracecontext, baggage,b3,b3multi' })?.propagators).toEqual([
      'tracecontext',
      'baggage',
      'b3',
      'b3multi',
    ]);
    expect(settings({ ...grpc, OTEL_PROPAGATORS: 'none' })?.propagators).toEqual([]);
    expect(problems({ ...grpc, OTEL_PROPAGATORS: 'none,b3' })).toEqual([
      'OTEL_PROPAGATORS: `none` cannot be combined with other propagators',
    ]);
  });

  it('appends v1/traces to the base endpoint only; the traces endpoint is used as it is and wins', () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/base/' })?.url).toBe(
      'https://otel.example/base/v1/traces',
    );
    expect(
      settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom',
      })?.url,
    ).toBe('http://traces:9999/custom');
  });

  it('OTEL_SERVICE_NAME wins over service.name in OTEL_RESOURCE_ATTRIBUTES, which wins over the default', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    const attributes = 'service.name=from-attrs,deployment.environment=prod%20eu';
    expect(settings({ ...base, OTEL_RESOURCE_ATTRIBUTES: attributes })).toMatchObject({
      serviceName: 'from-attrs',
      resourceAttributes: { 'service.name': 'from-attrs', 'deployment.environment': 'prod eu' },
    });
    expect(settings({ ...base, OTEL_RESOURCE_ATTRIBUTES: attributes, OTEL_SERVICE_NAME: 'gw' })?.serviceName).toBe(
      'gw',
    );
  });

  it('reads the sampler and its ratio, and the exporter headers (percent-decoded)', () => {
    expect(
      settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.01',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D,x-tenant=t1',
      }),
    ).toMatchObject({
      protocol: 'http/json',
      sampler: 'parentbased_traceidratio',
      ratio: 0.01,
      headers: { 'x-api-key': 'abc==', 'x-tenant': 't1' },
    });
  });

  it('reports every bad OTEL_* field at once, by name, never showing the headers', () => {
    const found = problems({
      OTEL_TRACES_SAMPLER: 'jaeger_remote',
      OTEL_TRACES_SAMPLER_ARG: '1.5',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc/json',
      OTEL_PROPAGATORS: 'tracecontext,jaeger',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization: Bearer s3cr3t',
      OTEL_RESOURCE_ATTRIBUTES: 'novalue',
      OTEL_SDK_DISABLED: 'maybe',
    });
    expect(found).toEqual([
      'OTEL_SDK_DISABLED: expected true or false, got "maybe"',
      'OTEL_RESOURCE_ATTRIBUTES: expected key=value pairs separated by commas',
      'OTEL_EXPORTER_OTLP_ENDPOINT: expected an http(s) URL, got "collector:4318"',
      'OTEL_EXPORTER_OTLP_PROTOCOL: expected one of http/protobuf | http/json | grpc, got "grpc/json"',
      'OTEL_PROPAGATORS: expected one of tracecontext | baggage | b3 | b3multi | none, got "jaeger"',
      'OTEL_EXPORTER_OTLP_HEADERS: expected header=value pairs separated by commas (value not shown: it is a secret)',
      'OTEL_TRACES_SAMPLER: expected one of always_on | always_off | traceidratio | parentbased_always_on | parentbased_always_off | parentbased_traceidratio, got "jaeger_remote"',
      'OTEL_TRACES_SAMPLER_ARG: expected a sampling ratio from 0 to 1, got "1.5"',
    ]);
    expect(found.join('\n')).not.toContain('s3cr3t');
  });

  it('refuses a sampler argument the sampler would ignore (with tracing on)', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(problems({ ...on, OTEL_TRACES_SAMPLER_ARG: '0.1' })).toEqual([
      'OTEL_TRACES_SAMPLER_ARG: only read by traceidratio and parentbased_traceidratio; OTEL_TRACES_SAMPLER is parentbased_always_on',
    ]);
    expect(problems({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })).toEqual([]);
  });
});
