import type { GraphQLFormattedError } from 'graphql';
import { ClientErrorCode, isClientSafe } from './error-registry.js';

/**
 * Extensions a client-safe error keeps in production besides `code`: figures the client can act
 * on, and the code it had before it took Apollo Router's (error-registry.ts, LEGACY_CODES).
 */
const CLIENT_SAFE_EXTENSIONS = ['estimatedCost', 'maxCost', 'legacyCode'] as const;

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
    const safe = isClientSafe(code);
    return {
      message: safe ? withoutSuggestions(formatted.message) : MASKED_MESSAGE,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code, ...(safe && safeExtensions(formatted.extensions)) },
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
