import type { FormattedExecutionResult } from 'graphql';
import type { GatewayContext } from '../contract/index.js';

/** Where the subscription executor leaves a subscription's events for the transport that asked for them. */
export interface StreamSink {
  events?: AsyncIterableIterator<FormattedExecutionResult>;
}

// On the request's context itself (Apollo Server hands plugins and the executor a shallow copy of
// it, so a WeakMap keyed by the original would miss). Only a transport that can stream (WebSocket,
// SSE, multipart) opens one, so a subscription sent over plain HTTP finds none and is refused.
const SINK = Symbol('stream sink');

export function openStreamSink(context: GatewayContext): StreamSink {
  const sink: StreamSink = {};
  (context as { [SINK]?: StreamSink })[SINK] = sink;
  return sink;
}

export function streamSinkOf(context: GatewayContext): StreamSink | undefined {
  return (context as { [SINK]?: StreamSink })[SINK];
}

/**
 * For a plugin's `aroundExecute`: a subscription's execution answers only an acknowledgement,
 * and its events come later through the sink. This maps each of them (authorization patches
 * each event as it patches an answer); returning the mapped stream returns the original.
 */
export function mapStreamEvents(
  context: GatewayContext,
  map: (event: FormattedExecutionResult) => FormattedExecutionResult,
): void {
  const sink = streamSinkOf(context);
  const events = sink?.events;
  if (!sink || !events) return;
  const mapped: AsyncIterableIterator<FormattedExecutionResult> = {
    next: async () => {
      const step = await events.next();
      return step.done ? step : { done: false, value: map(step.value) };
    },
    return: async () => (await events.return?.()) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => mapped,
  };
  sink.events = mapped;
}
