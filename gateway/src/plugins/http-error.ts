import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';

/**
 * An error a plugin throws to reject a request: Apollo Server answers with `status`,
 * the given response headers, and `{"errors":[{"message","extensions":{"code"}}]}`.
 */
export function httpError(
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  /** More extensions for the client (listed in format-error.ts so production keeps them). */
  extensions: Readonly<Record<string, unknown>> = {},
): GraphQLError {
  return new GraphQLError(message, {
    extensions: { ...extensions, code, http: { status, headers: new HeaderMap(Object.entries(headers)) } },
  });
}
