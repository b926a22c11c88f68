import type { HeaderMap } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { GatewayPlugin, Refusal, RequestScope } from '../contract/index.js';
import { CLIENT_ERRORS, ClientErrorCode, isClientErrorCode } from '../error-registry.js';
import type { Logger } from '../logger.js';

/**
 * Runs the plugins' `admit` hooks for a request that carries no operation (a preflight, a
 * reservation): the first refusal, as every mount sends it, or undefined. A hook that throws
 * anything but an `httpError()` is a bug in that plugin: logged, answered 500.
 */
export function admitWith(
  plugins: readonly GatewayPlugin[],
  formatError: (error: GraphQLFormattedError) => GraphQLFormattedError,
  logger: Logger,
): ((scope: RequestScope) => Promise<Refusal | undefined>) | undefined {
  const admitters = plugins.filter((plugin) => plugin.admit);
  if (admitters.length === 0) return undefined;
  return async (scope) => {
    for (const plugin of admitters) {
      try {
        await plugin.admit?.(scope);
      } catch (error) {
        if (error instanceof GraphQLError && error.extensions.http) return refusalOf(error, formatError);
        logger.error({ err: error, plugin: plugin.name, requestId: scope.requestId }, 'plugin admit hook failed');
        return refusalOf(
          new GraphQLError('Internal server error', { extensions: { code: ClientErrorCode.INTERNAL_SERVER_ERROR } }),
          formatError,
        );
      }
    }
    return undefined;
  };
}

function refusalOf(error: GraphQLError, formatError: (error: GraphQLFormattedError) => GraphQLFormattedError): Refusal {
  const { http, ...extensions } = error.extensions as {
    http?: { status?: number; headers?: HeaderMap };
    code?: unknown;
  };
  const code = extensions.code;
  const status = http?.status ?? (isClientErrorCode(code) ? CLIENT_ERRORS[code].status : 500);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  for (const [name, value] of http?.headers ?? []) headers[name] = value;
  const formatted = formatError(new GraphQLError(error.message, { extensions }).toJSON());
  return { status, headers, body: JSON.stringify({ errors: [formatted] }) };
}
