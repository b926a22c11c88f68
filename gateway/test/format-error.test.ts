import type { GraphQLFormattedError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { isClientSafe } from '../src/error-registry.js';
import { createFormatError, MASKED_MESSAGE } from '../src/format-error.js';

const location = [{ line: 1, column: 3 }];

function internalError(extensions: Record<string, unknown> | undefined): GraphQLFormattedError {
  return {
    message: 'connect ECONNREFUSED 10.0.0.5:5432 at Pool.query (/srv/app/db.js:12:7)',
    locations: location,
    path: ['me', 'orders', 0],
    ...(extensions ? { extensions } : {}),
  };
}

describe('createFormatError(true): masked errors', () => {
  const format = createFormatError(true);

  it.each([
    ['INTERNAL_SERVER_ERROR', { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['Error: boom', '    at db.js:12'] }],
    [
      'DOWNSTREAM_SERVICE_ERROR',
      { code: 'DOWNSTREAM_SERVICE_ERROR', serviceName: 'users', exception: { sql: 'SELECT * FROM users' } },
    ],
    ['an unknown code', { code: 'ECONNRESET', serviceName: 'products' }],
  ])('hides the message and every extension but code for %s', (_label, extensions) => {
    expect(format(internalError(extensions))).toEqual({
      message: MASKED_MESSAGE,
      locations: location,
      path: ['me', 'orders', 0],
      extensions: { code: extensions.code },
    });
  });

  it("uses 'Internal server error' as the masked message", () => {
    expect(MASKED_MESSAGE).toBe('Internal server error');
  });

  it('gives an error without a code INTERNAL_SERVER_ERROR', () => {
    expect(format(internalError({ serviceName: 'users', stacktrace: ['at x'] }))).toEqual({
      message: 'Internal server error',
      locations: location,
      path: ['me', 'orders', 0],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('gives an error without extensions INTERNAL_SERVER_ERROR', () => {
    expect(format({ message: 'TypeError: x is undefined' })).toEqual({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('treats a code that is not a string as missing', () => {
    expect(format({ message: 'secret', extensions: { code: 500 } })).toEqual({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it.each([
    'GRAPHQL_PARSE_FAILED',
    'GRAPHQL_VALIDATION_FAILED',
    'BAD_USER_INPUT',
    'BAD_REQUEST',
    'OPERATION_RESOLUTION_FAILURE',
    'PERSISTED_QUERY_NOT_FOUND',
    'PERSISTED_QUERY_NOT_SUPPORTED',
    'UNAUTHENTICATED',
    'FORBIDDEN',
    'GATEWAY_TIMEOUT',
    'SUBREQUEST_HTTP_ERROR',
    'SUBREQUEST_MALFORMED_RESPONSE',
    'MAX_DEPTH_LIMIT',
    'REQUEST_RATE_LIMITED',
    'SUBSCRIPTION_MAX_LIMIT',
  ])('keeps the message of a client-safe %s error, but still drops other extensions', (code) => {
    const error: GraphQLFormattedError = {
      message: `Client-facing message for ${code}`,
      locations: location,
      path: ['product'],
      extensions: { code, serviceName: 'products', stacktrace: ['at resolver.js:1'] },
    };

    expect(format(error)).toEqual({
      message: `Client-facing message for ${code}`,
      locations: location,
      path: ['product'],
      extensions: { code },
    });
    expect(isClientSafe(code)).toBe(true);
  });

  it('adds no locations or path when the error has none', () => {
    const formatted = format({ message: 'Syntax Error', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });

    expect(formatted).toEqual({ message: 'Syntax Error', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    expect(formatted).not.toHaveProperty('locations');
    expect(formatted).not.toHaveProperty('path');
  });

  it('does not modify the error it is given', () => {
    const error = internalError({ code: 'INTERNAL_SERVER_ERROR', stacktrace: ['at x'] });
    const copy = structuredClone(error);

    format(error);

    expect(error).toEqual(copy);
  });
});

describe('createFormatError(false): unmasked errors', () => {
  it('returns the error unchanged', () => {
    const format = createFormatError(false);
    const error = internalError({ code: 'INTERNAL_SERVER_ERROR', stacktrace: ['Error: boom'], serviceName: 'users' });

    expect(format(error)).toBe(error);
    expect(format(error)).toEqual(
      internalError({ code: 'INTERNAL_SERVER_ERROR', stacktrace: ['Error: boom'], serviceName: 'users' }),
    );
  });
});

describe('isClientSafe', () => {
  it.each([['INTERNAL_SERVER_ERROR'], ['DOWNSTREAM_SERVICE_ERROR'], [undefined], [42]])('is false for %s', (code) => {
    expect(isClientSafe(code)).toBe(false);
  });
});
