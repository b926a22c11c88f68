import { describe, expect, it } from 'vitest';
import type { RequestScope } from '../../src/contract/index.js';
import { methodForApollo, searchOf } from '../../src/subscriptions/transport-method.js';

const scope = (method: string) => ({ method }) as RequestScope;

describe('methodForApollo: the method Apollo Server checks a streamed operation with', () => {
  it('keeps GET for a query or mutation over an SSE GET, so Apollo refuses the mutation (405)', () => {
    expect(methodForApollo(scope('GET'), { query: 'mutation { a }' }, 100)).toBe('GET');
    expect(methodForApollo(scope('GET'), { query: '{ a }' }, 100)).toBe('GET');
    // Named operations: the one asked for decides.
    const both = 'subscription S { a } mutation M { a }';
    expect(methodForApollo(scope('GET'), { query: both, operationName: 'M' }, 100)).toBe('GET');
    expect(methodForApollo(scope('GET'), { query: both, operationName: 'S' }, 100)).toBe('POST');
  });

  it('tells a subscription over GET POST (it only reads); unreadable or id-only documents stay GET', () => {
    expect(methodForApollo(scope('GET'), { query: 'subscription { a }' }, 100)).toBe('POST');
    expect(methodForApollo(scope('GET'), { query: 'subscription {' }, 100)).toBe('GET');
    expect(methodForApollo(scope('GET'), { query: 'subscription { a b c d }' }, 3)).toBe('GET');
    expect(methodForApollo(scope('GET'), { extensions: { persistedQuery: {} } }, 100)).toBe('GET');
  });

  it('counts a WebSocket message and an SSE POST as POST', () => {
    expect(methodForApollo(scope('WS'), { query: 'mutation { a }' }, 100)).toBe('POST');
    expect(methodForApollo(scope('POST'), { query: 'mutation { a }' }, 100)).toBe('POST');
  });

  it('hands Apollo the query string of the URL (trusted documents read GET ids there)', () => {
    expect(searchOf('/graphql?documentId=abc&token=t')).toBe('documentId=abc&token=t');
    expect(searchOf('/graphql')).toBe('');
  });
});
