import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { CLIENT_ERRORS, type ClientErrorCode } from './error-registry.js';

/**
 * An error a plugin throws to reject a request: Apollo Server answers with the code's
 * registered HTTP status (error-registry.ts),
 * the given response headers, and `{"errors":[{"message","extensions":{"code"}}]}`.
 */
export function httpError(
  code: ClientErrorCode,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  /** More extensions for the client (listed in format-error.ts so production keeps them). */
  extensions: Readonly<Record<string, unknown>> = {},
): GraphQLError {
  const { status } = CLIENT_ERRORS[code];
  return new GraphQLError(message, {
    extensions: { ...extensions, code, http: { status, headers: new HeaderMap(Object.entries(headers)) } },
  });
}
