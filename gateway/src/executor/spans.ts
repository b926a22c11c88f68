import { type OpenTelemetryConfig, recordExceptions, tracer } from '@apollo/gateway/dist/utilities/opentelemetry.js';
import {
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/** What a ProxyTracerProvider answers before an SDK is registered: the API's no-op provider. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/** The span every no-op tracer would make: non-recording, invalid context. One for the process. */
export const NO_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * No OpenTelemetry SDK is registered (the default: TRACING_ENABLED off and no SDK of the
 * application's): @apollo/gateway's tracer would start no-op spans, so the executor skips
 * them, and with them a span, a context (a Map copy), closures and attribute objects per span,
 * 5–8 spans a request (issue 31). Read per request: an SDK registered later is seen at once.
 */
export function tracingOff(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_PROVIDER;
}

/** Records errors on a span and marks it failed, as @apollo/gateway does with its own spans. */
export function markFailed(span: Span, errors: readonly Error[], telemetry: OpenTelemetryConfig | undefined): void {
  recordExceptions(span, errors, telemetry);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Runs `work` in a new active span of @apollo/gateway's own tracer (so the lean executor's
 * spans are the stock executor's: same names, same parents); a thrown error is recorded on
 * the span and thrown on, and the span always ends.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  telemetry: OpenTelemetryConfig | undefined,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (tracingOff()) return work(NO_SPAN);
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, [error as Error], telemetry);
      throw error;
    } finally {
      span.end();
    }
  });
}
