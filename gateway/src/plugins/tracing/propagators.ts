import type { TextMapPropagator } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TracingSettings } from './settings.js';

/**
 * OTEL_PROPAGATORS as one propagator: each reads its headers from a request (the first that
 * finds a trace context wins) and all write theirs on each subgraph request. B3's package is
 * loaded only when named.
 */
export async function propagatorOf(names: TracingSettings['propagators']): Promise<TextMapPropagator> {
  const propagators: TextMapPropagator[] = [];
  for (const name of names) {
    if (name === 'tracecontext') propagators.push(new W3CTraceContextPropagator());
    else if (name === 'baggage') propagators.push(new W3CBaggagePropagator());
    else {
      const { B3Propagator, B3InjectEncoding } = await import('@opentelemetry/propagator-b3');
      const injectEncoding = name === 'b3' ? B3InjectEncoding.SINGLE_HEADER : B3InjectEncoding.MULTI_HEADER;
      propagators.push(new B3Propagator({ injectEncoding }));
    }
  }
  return new CompositePropagator({ propagators });
}
