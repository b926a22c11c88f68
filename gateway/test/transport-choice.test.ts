import { describe, expect, it } from 'vitest';
import {
  acceptsDefer,
  chooseTransport,
  MAX_ACCEPT_CHARS,
  MAX_ACCEPT_RANGES,
  parseAccept,
  type Transport,
} from '../src/transport-choice.js';

// What a request can have: a query or mutation (JSON, or graphql-sse's distinct mode when asked
// for first), a subscription (graphql-sse, Apollo's multipart), an operation with @defer (multipart).
const QUERY: readonly Transport[] = ['json', 'event-stream'];
const SUBSCRIPTION: readonly Transport[] = ['event-stream', 'multipart-subscription'];
const DEFER: readonly Transport[] = ['multipart-defer'];

const URQL =
  'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed';
const URQL_SUBSCRIPTION = 'text/event-stream, multipart/mixed';
const APOLLO_QUERY = 'application/graphql-response+json,application/json;q=0.9';
const APOLLO_SUBSCRIPTION = 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json';
const APOLLO_DEFER = 'multipart/mixed;deferSpec=20220824,application/json';

describe('chooseTransport: what real clients send', () => {
  it.each([
    ['urql, a query', URQL, QUERY, 'json'],
    ['urql, a subscription over fetch', URQL_SUBSCRIPTION, SUBSCRIPTION, 'event-stream'],
    ['urql, @defer', URQL, DEFER, 'multipart-defer'],
    ['Apollo Client, a query', APOLLO_QUERY, QUERY, 'json'],
    ['Apollo Client, a subscription', APOLLO_SUBSCRIPTION, SUBSCRIPTION, 'multipart-subscription'],
    ['Apollo Client, @defer', APOLLO_DEFER, DEFER, 'multipart-defer'],
    ['graphql-sse, a subscription', 'text/event-stream', SUBSCRIPTION, 'event-stream'],
    ['graphql-sse, a query', 'text/event-stream', QUERY, 'event-stream'],
    ['curl', '*/*', QUERY, 'json'],
    ['no Accept', undefined, QUERY, 'json'],
    ['an empty Accept', '', QUERY, 'json'],
    ['a browser navigation', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', QUERY, 'json'],
  ] as const)('%s', (_client, accept, offers, expected) => {
    expect(chooseTransport(accept, offers)).toBe(expected);
  });
});

describe('chooseTransport: preference', () => {
  it.each([
    // q-values first, then the order the client listed them in.
    ['application/json;q=0.5, text/event-stream', QUERY, 'event-stream'],
    ['text/event-stream;q=0.5, application/json', QUERY, 'json'],
    ['application/json, text/event-stream', QUERY, 'json'],
    ['text/event-stream, application/json', QUERY, 'event-stream'],
    ['multipart/mixed, text/event-stream', SUBSCRIPTION, 'multipart-subscription'],
    ['multipart/mixed;q=0.9, text/event-stream', SUBSCRIPTION, 'event-stream'],
    ['text/event-stream;q=0.1, multipart/mixed;q=0.2', SUBSCRIPTION, 'multipart-subscription'],
    ['multipart/mixed;q=0.1, text/event-stream;q=0.1', SUBSCRIPTION, 'multipart-subscription'],
    // q=0 refuses, whatever else matches less specifically.
    ['*/*, application/json;q=0, text/event-stream;q=0.1', QUERY, 'event-stream'],
    ['text/event-stream;q=0, application/json', QUERY, 'json'],
    ['text/event-stream;q=0.000, multipart/mixed', SUBSCRIPTION, 'multipart-subscription'],
    ['multipart/mixed;subscriptionSpec=1.0;q=0, text/event-stream;q=0.5', SUBSCRIPTION, 'event-stream'],
  ] as const)('%s', (accept, offers, expected) => {
    expect(chooseTransport(accept, offers)).toBe(expected);
  });
});

describe('chooseTransport: wildcards stand for JSON only', () => {
  it.each([
    ['*/*', QUERY, 'json'],
    ['application/*', QUERY, 'json'],
    ['application/*, text/event-stream', QUERY, 'json'],
    ['text/*', QUERY, 'json'], // names none of our types: the JSON answer, as before
    ['multipart/*', SUBSCRIPTION, 'json'],
    // A subscription from a client that takes anything: plain HTTP answers (SUBSCRIPTION_NOT_SUPPORTED).
    ['*/*', SUBSCRIPTION, 'json'],
    ['*/*', DEFER, 'json'],
    ['*/*;q=0', QUERY, undefined],
  ] as const)('%s', (accept, offers, expected) => {
    expect(chooseTransport(accept, offers)).toBe(expected);
  });
});

describe('chooseTransport: 406 for a transport the request cannot have', () => {
  it.each([
    ['multipart/mixed', QUERY],
    ['multipart/mixed;deferSpec=20220824', QUERY],
    ['application/json;q=0, multipart/mixed', QUERY],
    ['text/event-stream', DEFER],
    ['multipart/mixed;subscriptionSpec=1.0', DEFER],
    ['multipart/mixed;deferSpec=20220824', SUBSCRIPTION],
    ['application/json;q=0', QUERY],
  ] as const)('%s', (accept, offers) => {
    expect(chooseTransport(accept, offers)).toBeUndefined();
  });

  it('falls back to JSON whenever JSON is acceptable', () => {
    expect(chooseTransport('application/json', SUBSCRIPTION)).toBe('json');
    expect(chooseTransport('multipart/mixed, application/json;q=0.1', QUERY)).toBe('json');
    expect(chooseTransport('application/graphql-response+json', DEFER)).toBe('json');
  });
});

describe('chooseTransport: multipart spec parameters', () => {
  it.each([
    ['multipart/mixed', 'multipart-subscription', true],
    ['multipart/mixed', 'multipart-defer', true],
    ['multipart/mixed;subscriptionSpec=1.0', 'multipart-subscription', true],
    ['multipart/mixed;subscriptionSpec="1.0"', 'multipart-subscription', true],
    ['multipart/mixed; boundary="graphql"; subscriptionSpec="1.0"', 'multipart-subscription', true],
    ['multipart/mixed;subscriptionSpec=2.0', 'multipart-subscription', false],
    ['multipart/mixed;deferSpec=20220824', 'multipart-defer', true],
    ['multipart/mixed; deferspec="20220824"', 'multipart-defer', true],
    ['multipart/mixed;deferSpec=20220824', 'multipart-subscription', false],
    ['multipart/mixed;subscriptionSpec=1.0', 'multipart-defer', false],
    // graphql-js 17 alpha 9's incremental format (Apollo Client's GraphQL17Alpha9Handler), for @defer and @stream.
    ['multipart/mixed;incrementalSpec=v0.2', 'multipart-defer', true],
    ['multipart/mixed;incrementalSpec=v0.2', 'multipart-subscription', false],
    ['multipart/mixed;incrementalSpec=v0.3', 'multipart-defer', false],
    ['multipart/mixed;deferSpec=20220824;incrementalSpec=v0.2', 'multipart-defer', false],
  ] as const)('%s for %s: %s', (accept, transport, accepted) => {
    expect(chooseTransport(accept, [transport]) === transport).toBe(accepted);
  });

  it('acceptsDefer: the executor’s rule for @defer', () => {
    expect(acceptsDefer(APOLLO_DEFER)).toBe(true);
    expect(acceptsDefer(URQL)).toBe(true);
    expect(acceptsDefer('application/json')).toBe(false);
    expect(acceptsDefer('*/*')).toBe(false);
    expect(acceptsDefer(undefined)).toBe(false);
    expect(acceptsDefer('multipart/mixed;deferSpec=20220824;q=0, application/json')).toBe(false);
  });
});

describe('chooseTransport: spelling', () => {
  it.each([
    ['case', 'TEXT/Event-Stream, Application/JSON', QUERY, 'event-stream'],
    ['whitespace', '  application/json ;  q = 0.5 ,\ttext/event-stream ', QUERY, 'event-stream'],
    ['no space after commas', 'application/json;q=0.2,text/event-stream;q=0.3', QUERY, 'event-stream'],
    [
      'duplicates: the first of equals decides',
      'text/event-stream;q=0.2, text/event-stream;q=0.9, application/json;q=0.5',
      QUERY,
      'json',
    ],
    [
      'duplicates: the more specific decides',
      'application/*;q=0.1, application/json;q=0.9, text/event-stream;q=0.5',
      QUERY,
      'json',
    ],
    ['several Accept headers', ['text/event-stream', 'application/json'], QUERY, 'event-stream'],
    ['a charset parameter', 'application/json; charset=utf-8', QUERY, 'json'],
    ['empty entries', ',,, ,text/event-stream,,', QUERY, 'event-stream'],
  ] as const)('%s', (_what, accept, offers, expected) => {
    expect(chooseTransport(accept, offers)).toBe(expected);
  });

  it.each([
    'text/event-stream;q=2',
    'text/event-stream;q=-1',
    'text/event-stream;q=0.1234',
    'text/event-stream;q=abc',
    'text/event-stream;q',
    'text/event-stream;=1',
    'text/',
    '/event-stream',
    'text/event stream',
    '*/event-stream',
    'text/event-stream/extra',
  ])('a malformed range is skipped: %s', (range) => {
    expect(parseAccept(range)).toEqual([]);
    // Skipped, it neither picks its transport nor refuses JSON.
    expect(chooseTransport(`${range}, application/json`, QUERY)).toBe('json');
    expect(chooseTransport(range, QUERY)).toBe('json');
  });
});

describe('parseAccept: bounded', () => {
  it('reads at most MAX_ACCEPT_RANGES ranges', () => {
    const many = Array.from({ length: 1000 }, () => 'text/plain').join(',');
    expect(parseAccept(`${many},text/event-stream`)).toHaveLength(MAX_ACCEPT_RANGES);
    // Past the bound, a range is not read: the JSON answer, as for a header that names nothing.
    expect(chooseTransport(`${many},text/event-stream`, QUERY)).toBe('json');
  });

  it('reads at most MAX_ACCEPT_CHARS characters, and no range cut in two', () => {
    const padding = `text/plain;x=${'a'.repeat(MAX_ACCEPT_CHARS - 20)}`;
    const ranges = parseAccept(`${padding}, text/event-stream, application/json`);
    expect(ranges.map((range) => `${range.type}/${range.subtype}`)).toEqual(['text/plain']);
    expect(parseAccept(`text/event-stream;x=${'a'.repeat(100_000)}`)).toEqual([]);
  });

  it('a 100 KB header takes about as long as a normal one', () => {
    const huge = `${'application/json;q=0.5;'.repeat(5000)},${'x/y,'.repeat(20_000)}`;
    expect(huge.length).toBeGreaterThan(100_000);
    const time = (accept: string) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 200; i += 1) chooseTransport(accept, QUERY);
      return Number(process.hrtime.bigint() - start);
    };
    time(URQL);
    time(huge);
    // Generous: what is bounded is the work, not the machine's speed.
    expect(time(huge)).toBeLessThan(time(URQL) * 20 + 5_000_000);
  });
});
