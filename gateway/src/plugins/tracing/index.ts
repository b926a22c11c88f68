// The OpenTelemetry SDK, built from the parsed config. Imported (dynamically) only when
// tracing is on, so a gateway without it never loads the SDK or an exporter.
import {
  type Attributes,
  context,
  createNoopMeter,
  type Meter,
  type MeterProvider,
  propagation,
  trace,
} from '@opentelemetry/api';
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
import type { GatewayPlugin, TraceSpansDroppedEvent } from '../../plugin-sdk/index.js';
import { emitEvent, type Logger, LogThrottle } from '../../plugin-sdk/index.js';
import { tracingPlugin } from './plugin.js';
import { propagatorOf } from './propagators.js';
import type { TracingSettings } from './settings.js';

export { type TracingPluginOptions, tracingPlugin } from './plugin.js';

export interface StartTracingOptions {
  /** The GraphQL path (`http.route`). */
  route: string;
  /** Failed exports are logged here (at most one line a minute; never the URL or headers). */
  logger: Logger;
  /** The gateway's plugins, told of lost spans (`trace-spans-dropped`: the metrics plugin counts them). */
  plugins?: () => readonly GatewayPlugin[];
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
    spanProcessors: [
      new BatchSpanProcessor(await exporterOf(settings), {
        // The SDK's own count of the spans it processed tells the lost ones apart (not in BufferConfig's type).
        selfObsMeterProvider: lostSpans((event) => emitEvent(options.plugins?.() ?? [], event, options.logger)),
      } as ConstructorParameters<typeof BatchSpanProcessor>[1]),
    ],
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

/** What the SDK counts each span it finished processing on; `error.type` is set on a lost one. */
const PROCESSED_SPANS = 'otel.sdk.processor.span.processed';

/**
 * A meter provider for the span processor's self-observability that keeps only its lost spans:
 * `error.type` `queue_full` (the queue was full) or an exporter error's name (the export failed
 * or timed out). Every other instrument is a no-op.
 */
function lostSpans(report: (event: TraceSpansDroppedEvent) => void): MeterProvider {
  const noop = createNoopMeter();
  const meter: Meter = Object.create(noop);
  meter.createCounter = ((name: string, options) => {
    if (name !== PROCESSED_SPANS) return noop.createCounter(name, options);
    return {
      add(count: number, attributes?: Attributes) {
        const type = attributes?.['error.type'];
        if (type === undefined || count <= 0) return;
        report({ type: 'trace-spans-dropped', reason: type === 'queue_full' ? 'queue_full' : 'export_failed', count });
      },
    };
  }) as Meter['createCounter'];
  return { getMeter: () => meter };
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
