import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { GatewayPlugin, Refusal, RequestScope } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpAnswerOf } from '../http-error.js';
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
  const answer = httpAnswerOf(error);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  for (const [name, value] of answer.headers ?? []) headers[name] = value;
  return { status: answer.status, headers, body: JSON.stringify({ errors: [formatError(answer.error.toJSON())] }) };
}
