import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestScope } from '../../../src/contract/index.js';
import { tracingPlugin } from '../../../src/plugins/tracing/plugin.js';
import { issueFields, optionsError } from '../helpers/options-error.js';

/** The real SDK, exporting to memory: the spans the plugin ends for requests refused before Apollo ran. */
function recording() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, plugin: tracingPlugin({ tracer: provider.getTracer('test'), route: '/graphql' }) };
}

function scope(headers: RequestScope['headers'] = {}): RequestScope {
  return {
    requestId: 'req-1',
    method: 'GET',
    url: '/graphql?query=%7Bsecret%7D&variables=%7B%22token%22%3A%22abc%22%7D',
    headers,
    ip: '127.0.0.1',
    startedAt: process.hrtime.bigint(),
    appendResponseHeader: () => {},
  };
}

describe('tracing plugin', () => {
  // startTracing registers this one globally; the plugin reads `traceparent` through it.
  beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
  afterAll(() => propagation.disable());

  it('refuses bad options, naming each', () => {
    const error = optionsError('tracing', () => tracingPlugin({ tracer: {}, route: 'graphql', sample: 1 } as never));
    expect(issueFields(error)).toEqual(['route', 'sample', 'tracer']);
  });

  it('ends a server span for a request refused before the handler ran, with its status; 5xx is an error, 4xx is not', () => {
    const { exporter, plugin } = recording();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    plugin.onResponse?.(
      scope({ traceparent: `00-${traceId}-00f067aa0ba902b7-01`, authorization: 'Bearer t0k3n' }),
      413,
    );
    plugin.onResponse?.(scope(), 503);
    const [refused, failed] = exporter.getFinishedSpans();
    expect(refused?.name).toBe('GET /graphql');
    expect(refused?.spanContext().traceId).toBe(traceId);
    expect(refused?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(refused?.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/graphql',
      'url.path': '/graphql',
      'url.scheme': 'http',
      'client.address': '127.0.0.1',
      'fedgw.request.id': 'req-1',
      'http.response.status_code': 413,
    });
    expect(refused?.status.code).toBe(0); // UNSET: the client's mistake
    expect(failed?.status.code).toBe(2); // ERROR
    expect(failed?.attributes['error.type']).toBe('503');
    expect(JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes))).not.toMatch(/t0k3n|secret|abc/);
  });

  it('reads server.address and port from Host, cuts the User-Agent, and records an unknown method as _OTHER', () => {
    const { exporter, plugin } = recording();
    const agent = `agent/${'x'.repeat(400)}`;
    plugin.onResponse?.({ ...scope({ host: 'gw.example:8443', 'user-agent': agent }), method: 'PROPFIND' }, 404);
    plugin.onResponse?.({ ...scope({ host: '[::1]' }), scheme: 'https' }, 200);
    plugin.onResponse?.(scope({ host: 'bad host\u0000' }), 200);
    const [unknown, v6, bad] = exporter.getFinishedSpans();
    expect(unknown?.name).toBe('_OTHER /graphql');
    expect(unknown?.attributes).toMatchObject({
      'http.request.method': '_OTHER',
      'http.request.method_original': 'PROPFIND',
      'server.address': 'gw.example',
      'server.port': 8443,
      'user_agent.original': agent.slice(0, 256),
    });
    expect(v6?.attributes).toMatchObject({ 'server.address': '::1', 'server.port': 443, 'url.scheme': 'https' });
    expect(bad?.attributes).not.toHaveProperty('server.address');
  });
});
