import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { CLIENT_ERRORS, type ClientErrorCode, isClientErrorCode } from './error-registry.js';

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

/**
 * How a refusal (an `httpError()`, or any GraphQLError) is answered outside Apollo Server's
 * pipeline: its status (the one it carries, else its code's, else 500), its response headers,
 * and the error without the `http` extension, for the client.
 */
export function httpAnswerOf(error: GraphQLError): {
  status: number;
  headers: HeaderMap | undefined;
  error: GraphQLError;
} {
  const { http, ...extensions } = error.extensions as {
    http?: { status?: number; headers?: HeaderMap };
    code?: unknown;
  };
  const { code } = extensions;
  const status = http?.status ?? (isClientErrorCode(code) ? CLIENT_ERRORS[code].status : 500);
  return { status, headers: http?.headers, error: new GraphQLError(error.message, { extensions }) };
}
