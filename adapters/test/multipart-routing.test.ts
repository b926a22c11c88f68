import { describe, expect, it } from 'vitest';
import { wantsMultipartSubscription } from '../src/subscriptions/multipart.js';
import { selectedOperationType } from '../src/subscriptions/operation-type.js';

describe('which operation a request selects (read from tokens, before Apollo parses it)', () => {
  it.each([
    ['subscription { a }', undefined, 'subscription'],
    ['subscription S($x: In = {a: [1, {b: 2}]}) @d(k: "{ }") { a(x: $x) { b } }', undefined, 'subscription'],
    ['{ a { b } }', undefined, 'query'],
    ['# subscription { a }\nquery Q { a }', undefined, 'query'],
    ['mutation M { a }', undefined, 'mutation'],
    ['fragment F on S { a } subscription { ...F }', undefined, 'subscription'],
    ['query Q { a } subscription S { b }', 'S', 'subscription'],
    ['query Q { a } subscription S { b }', 'Q', 'query'],
    ['subscription S { b } mutation M { a }', 'M', 'mutation'],
    ['query Q { a } subscription S { b }', undefined, undefined],
    ['subscription S { b }', 'T', undefined],
    ['subscription { a } "', undefined, undefined],
    ['', undefined, undefined],
  ])('%j (operationName %j): %s', (query, operationName, expected) => {
    expect(selectedOperationType(query, operationName)).toBe(expected);
  });
});

describe('which Accept asks for multipart subscriptions', () => {
  it.each([
    [
      'multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9',
      true,
    ],
    ['multipart/mixed;subscriptionSpec="1.0", application/json', true],
    ['application/json, Multipart/Mixed; SubscriptionSpec=1.0', true],
    ['multipart/mixed;subscriptionSpec=1.0;q=0, application/json', false],
    ['multipart/mixed;deferSpec=20220824, application/json', false],
    ['application/json', false],
    [undefined, false],
  ])('%j: %s', (accept, expected) => {
    expect(wantsMultipartSubscription(accept)).toBe(expected);
  });
});
