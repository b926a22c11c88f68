import { describe, expect, it } from 'vitest';
import { createRequestScope, REQUEST_ID_HEADER, requestIdFrom } from '../src/request-scope.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFrom', () => {
  it('reads the x-request-id header and no other', () => {
    expect(requestIdFrom({ [REQUEST_ID_HEADER]: 'from-header' })).toBe('from-header');
    expect(requestIdFrom({ 'x-correlation-id': 'other', 'request-id': 'other' })).toMatch(UUID);
  });

  it.each([
    ['a word', 'abc'],
    ['a UUID', '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f'],
    ['dots, colons, dashes and underscores', 'trace:span.01_A-b'],
    ['a single character', 'x'],
    ['128 characters', 'a'.repeat(128)],
  ])('keeps a safe id: %s', (_label, id) => {
    expect(requestIdFrom({ 'x-request-id': id })).toBe(id);
  });

  it.each([
    ['129 characters', 'a'.repeat(129)],
    ['a space', 'abc def'],
    ['a newline (log injection)', 'abc\n{"level":"fatal"}'],
    ['a carriage return', 'abc\r'],
    ['a tab', 'abc\tdef'],
    ['a duplicated header joined by Node', 'a, b'],
    ['quotes and braces', '"}{'],
    ['non-ASCII letters', 'réquest'],
    ['an empty string', ''],
  ])('replaces an id with %s by a fresh UUID', (_label, id) => {
    const result = requestIdFrom({ 'x-request-id': id });

    expect(result).not.toBe(id);
    expect(result).toMatch(UUID);
  });

  it('replaces an array of ids by a fresh UUID', () => {
    expect(requestIdFrom({ 'x-request-id': ['a', 'b'] })).toMatch(UUID);
  });

  it('makes up a UUID when the header is missing, a new one each time', () => {
    const first = requestIdFrom({});
    const second = requestIdFrom({ host: 'example.com' });

    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });
});

describe('createRequestScope', () => {
  const appended: [string, string][] = [];
  const append = (name: string, value: string) => {
    appended.push([name, value]);
  };

  it("hands plugins the adapter's way to add response headers", () => {
    const scope = createRequestScope({ method: 'GET', url: '/graphql', headers: {}, ip: '' }, append);
    scope.appendResponseHeader('set-cookie', 'a=1');
    expect(appended).toEqual([['set-cookie', 'a=1']]);
  });

  it('records the request and a start time', () => {
    const headers = { 'x-request-id': 'req-42', host: 'gateway.local' };
    const before = process.hrtime.bigint();

    const scope = createRequestScope({ method: 'POST', url: '/graphql?x=1', headers, ip: '10.1.2.3' }, append);

    const after = process.hrtime.bigint();
    expect(scope).toMatchObject({
      requestId: 'req-42',
      method: 'POST',
      url: '/graphql?x=1',
      ip: '10.1.2.3',
    });
    expect(scope.headers).toBe(headers);
    expect(typeof scope.startedAt).toBe('bigint');
    expect(scope.startedAt >= before && scope.startedAt <= after).toBe(true);
    expect(scope.operationName).toBeUndefined();
  });

  it('uses an empty ip when the framework has none', () => {
    expect(createRequestScope({ method: 'GET', url: '/graphql', headers: {}, ip: undefined }, append).ip).toBe('');
  });

  it('gets a fresh UUID when the client sends an unsafe id', () => {
    const scope = createRequestScope(
      {
        method: 'GET',
        url: '/graphql',
        headers: { 'x-request-id': 'evil id\n' },
        ip: '127.0.0.1',
      },
      append,
    );

    expect(scope.requestId).toMatch(UUID);
  });
});
