import { describe, expect, it } from 'vitest';
import { ClientErrorCode } from '../../src/error-registry.js';
import { SubscriptionEnd } from '../../src/subscriptions/subscription-end.js';

describe('SubscriptionEnd', () => {
  it('of(): one error with the code, and the message as the Error message', () => {
    const end = SubscriptionEnd.of(ClientErrorCode.SUBSCRIPTION_SCHEMA_RELOAD, 'reloaded');
    expect(end).toBeInstanceOf(Error);
    expect(end.message).toBe('reloaded');
    expect(end.errors).toEqual([{ message: 'reloaded', extensions: { code: 'SUBSCRIPTION_SCHEMA_RELOAD' } }]);
  });

  it('slowConsumer(): SUBSCRIPTION_SLOW_CONSUMER, naming the limit', () => {
    const end = SubscriptionEnd.slowConsumer(64);
    expect(end.errors).toHaveLength(1);
    expect(end.errors[0]?.extensions?.code).toBe('SUBSCRIPTION_SLOW_CONSUMER');
    expect(end.errors[0]?.message).toContain('More than 64 events');
  });

  it("fromSubgraph() with the subgraph's errors: keeps each message and extension, adds serviceName", () => {
    const end = SubscriptionEnd.fromSubgraph('reviews', [
      { message: 'Cannot query field "nope"', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
      { message: 'second' },
    ]);
    expect(end.errors).toEqual([
      {
        message: 'Cannot query field "nope"',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', serviceName: 'reviews' },
      },
      { message: 'second', extensions: { serviceName: 'reviews' } },
    ]);
    expect(end.message).toBe('Cannot query field "nope"');
  });

  it('fromSubgraph() with a WebSocket close: WEBSOCKET_CLOSE_ERROR with the close code, not its reason', () => {
    const end = SubscriptionEnd.fromSubgraph('reviews', { code: 1006, reason: 'secret internals' });
    expect(end.errors).toHaveLength(1);
    const [error] = end.errors;
    expect(error?.extensions).toEqual({
      code: 'WEBSOCKET_CLOSE_ERROR',
      legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED',
      serviceName: 'reviews',
    });
    expect(error?.message).toBe(
      'The subgraph "reviews" ended the subscription (WebSocket close 1006). Subscribe again.',
    );
    expect(error?.message).not.toContain('secret');
  });

  it.each([
    ['nothing', undefined],
    ['an Error', new Error('ECONNREFUSED 127.0.0.1')],
    ['an empty error list', []],
  ])('fromSubgraph() with %s: WEBSOCKET_CLOSE_ERROR without a close code', (_, reason) => {
    const end = SubscriptionEnd.fromSubgraph('reviews', reason);
    expect(end.errors).toEqual([
      {
        message: 'The subgraph "reviews" ended the subscription. Subscribe again.',
        extensions: { code: 'WEBSOCKET_CLOSE_ERROR', legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED', serviceName: 'reviews' },
      },
    ]);
  });
});
