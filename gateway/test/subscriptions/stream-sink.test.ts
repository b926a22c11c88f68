import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.js';
import type { GatewayContext } from '../../src/contract/index.js';
import { openStreamSink, streamSinkOf } from '../../src/subscriptions/stream-sink.js';

function contextOf(): GatewayContext {
  return createContext(
    {
      requestId: 'req-1',
      method: 'GET',
      url: '/graphql',
      headers: {},
      ip: '203.0.113.7',
      startedAt: process.hrtime.bigint(),
      appendResponseHeader: () => {},
    },
    {},
  );
}

describe('stream sink', () => {
  it('a context without one has none (a subscription over plain HTTP)', () => {
    expect(streamSinkOf(contextOf())).toBeUndefined();
  });

  it('is found on the context it was opened on, and on a shallow copy of it (what Apollo Server passes on)', () => {
    const context = contextOf();
    const sink = openStreamSink(context);
    expect(streamSinkOf(context)).toBe(sink);
    expect(streamSinkOf({ ...context })).toBe(sink);
    expect(sink.events).toBeUndefined();
  });

  it('each context gets its own', () => {
    const first = contextOf();
    const second = contextOf();
    const sink = openStreamSink(first);
    expect(streamSinkOf(second)).toBeUndefined();
    expect(openStreamSink(second)).not.toBe(sink);
  });
});
