// The OpenTelemetry SDK, built from the parsed config. Imported (dynamically) only when
// tracing is on, so a gateway without it never loads the SDK or an exporter.
import { context, propagation, trace } from '@opentelemetry/api';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { GatewayPlugin } from '../../contract/index.js';
import { type Logger, LogThrottle } from '../../contract/kit.js';
import { tracingPlugin } from './plugin.js';
import { propagatorOf } from './propagators.js';
import type { TracingSettings } from './settings.js';

export { type TracingPluginOptions, tracingPlugin } from './plugin.js';

export interface StartTracingOptions {
  /** The GraphQL path (`http.route`). */
  route: string;
  /** Failed exports are logged here (at most one line a minute; never the URL or headers). */
  logger: Logger;
}

/**
 * Registers the global tracer provider (AsyncLocalStorage context, the OTEL_PROPAGATORS
 * propagators, a batch processor exporting OTLP over HTTP or gRPC) and returns the plugin that
 * makes the server and subgraph client spans. The plugin's `close()` flushes the last spans and unregisters
 * the SDK, so it runs when the gateway stops (SIGTERM included).
 */
export async function startTracing(settings: TracingSettings, options: StartTracingOptions): Promise<GatewayPlugin> {
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...settings.resourceAttributes, [ATTR_SERVICE_NAME]: settings.serviceName }),
    ),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor(await exporterOf(settings))],
  });
  provider.register({ propagator: await propagatorOf(settings.propagators) });
  const throttle = new LogThrottle(1, 60_000);
  setGlobalErrorHandler((error) => {
    const suppressed = throttle.take();
    // The error's name and code only: an exporter's message can quote the endpoint.
    const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
    if (suppressed !== undefined) options.logger.warn({ error: name, code, suppressed }, 'trace export failed');
  });
  options.logger.info(
    {
      protocol: settings.protocol,
      propagators: settings.propagators,
      sampler: settings.sampler,
      ...(settings.sampler.endsWith('traceidratio') && { ratio: settings.ratio }),
      serviceName: settings.serviceName,
    },
    'tracing on',
  );
  return tracingPlugin({
    tracer: provider.getTracer('@fedgw/gateway'),
    route: options.route,
    shutdown: async () => {
      try {
        await provider.shutdown();
      } finally {
        // Unregistered, so a gateway started later in this process can register its own.
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  });
}

function samplerOf({ sampler, ratio }: TracingSettings): Sampler {
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

/** Only the exporter of the configured protocol is loaded (gRPC's brings @grpc/grpc-js). */
async function exporterOf({ protocol, url, headers }: TracingSettings): Promise<SpanExporter> {
  if (protocol === 'grpc') {
    const [{ OTLPTraceExporter }, { Metadata }] = await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-grpc'),
      import('@grpc/grpc-js'),
    ]);
    // The headers travel as gRPC metadata; `http://` is plaintext (h2c), `https://` TLS.
    const metadata = new Metadata();
    for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
    return new OTLPTraceExporter({ url, metadata });
  }
  const { OTLPTraceExporter } =
    protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url, headers: { ...headers } });
}
