import type { GraphQLFormattedError } from 'graphql';
import { ClientErrorCode } from './error-codes.js';

/**
 * Codes whose messages are written for clients and safe to show as they are.
 * Anything else (INTERNAL_SERVER_ERROR, DOWNSTREAM_SERVICE_ERROR, no code) may carry
 * internals such as a stack, a SQL error or a subgraph's URL.
 */
const CLIENT_SAFE_CODES = new Set<string>([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  ClientErrorCode.SUBGRAPH_TIMEOUT,
  ClientErrorCode.SUBGRAPH_UNAVAILABLE,
  ClientErrorCode.SUBGRAPH_BAD_RESPONSE,
  ClientErrorCode.RATE_LIMITED,
  ClientErrorCode.RATE_LIMIT_UNAVAILABLE,
  ClientErrorCode.OPERATION_LIMIT_EXCEEDED,
  ClientErrorCode.SUBGRAPH_RESPONSE_TOO_LARGE,
  ClientErrorCode.RESPONSE_TOO_LARGE,
  ClientErrorCode.COST_ESTIMATED_TOO_EXPENSIVE,
  ClientErrorCode.SUBSCRIPTION_NOT_SUPPORTED,
]);

/** Extensions a client-safe error keeps in production besides `code`: figures the client can act on. */
const CLIENT_SAFE_EXTENSIONS = ['estimatedCost', 'maxCost'] as const;

export const MASKED_MESSAGE = 'Internal server error';

/**
 * Production error shape: the message only for client-safe codes (without field
 * suggestions), and no extension but `code` (no stack traces, subgraph names or bodies).
 */
export function createFormatError(maskErrors: boolean) {
  return (formatted: GraphQLFormattedError): GraphQLFormattedError => {
    if (!maskErrors) return formatted;
    const rawCode = formatted.extensions?.code;
    const code = typeof rawCode === 'string' ? rawCode : ClientErrorCode.INTERNAL_SERVER_ERROR;
    return {
      message: CLIENT_SAFE_CODES.has(code) ? withoutSuggestions(formatted.message) : MASKED_MESSAGE,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code, ...(CLIENT_SAFE_CODES.has(code) && safeExtensions(formatted.extensions)) },
    };
  };
}

function safeExtensions(extensions: GraphQLFormattedError['extensions']): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of CLIENT_SAFE_EXTENSIONS) if (extensions?.[key] !== undefined) kept[key] = extensions[key];
  return kept;
}

/** graphql-js's "Did you mean ...?" hints would let anyone map the schema without introspection. */
function withoutSuggestions(message: string): string {
  return message.replace(/ Did you mean .+\?$/, '');
}

export function isClientSafe(code: unknown): boolean {
  return typeof code === 'string' && CLIENT_SAFE_CODES.has(code);
}
