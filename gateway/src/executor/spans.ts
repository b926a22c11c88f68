import { type OpenTelemetryConfig, recordExceptions, tracer } from '@apollo/gateway/dist/utilities/opentelemetry.js';
import { type Span, type SpanOptions, SpanStatusCode } from '@opentelemetry/api';

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
