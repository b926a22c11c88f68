import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.js';
import type { GatewayContext, Identity } from '../../src/contract/index.js';
import { openStreamSink, streamSinkOf, subscriberOf } from '../../src/subscriptions/stream-sink.js';

function contextOf(identity: Identity = {}, ip = '203.0.113.7'): GatewayContext {
  return createContext(
    {
      requestId: 'req-1',
      method: 'GET',
      url: '/graphql',
      headers: {},
      ip,
      startedAt: process.hrtime.bigint(),
      appendResponseHeader: () => {},
    },
    identity,
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

describe('subscriberOf', () => {
  it('is the JWT subject when there is one, over an API key consumer and the address', () => {
    expect(subscriberOf(contextOf({ subject: 'u1', consumer: 'mobile' }))).toBe('sub:u1');
  });

  it('is the API key consumer without a subject', () => {
    expect(subscriberOf(contextOf({ consumer: 'mobile' }))).toBe('api-key:mobile');
  });

  it('is the address when anonymous', () => {
    expect(subscriberOf(contextOf({}, '198.51.100.4'))).toBe('ip:198.51.100.4');
  });

  it('keeps the three kinds apart: a subject, a consumer and an address spelled alike are different clients', () => {
    const keys = new Set([
      subscriberOf(contextOf({ subject: 'x' })),
      subscriberOf(contextOf({ consumer: 'x' })),
      subscriberOf(contextOf({}, 'x')),
    ]);
    expect(keys.size).toBe(3);
  });

  it('two users behind one address are two clients', () => {
    expect(subscriberOf(contextOf({ subject: 'alice' }, '10.0.0.1'))).not.toBe(
      subscriberOf(contextOf({ subject: 'bob' }, '10.0.0.1')),
    );
  });
});
