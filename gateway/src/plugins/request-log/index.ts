import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLError } from 'graphql';
import type { GatewayContext, GatewayPlugin } from '../../plugin-sdk/index.js';
import { isClientSafe, type Logger, mapDeferredParts } from '../../plugin-sdk/index.js';

/**
 * The gateway's one log line per request (at info, when its response is sent) and the
 * errors behind masked answers. Always on: compose/ puts it first.
 */
export function requestLog(logger: Logger): GatewayPlugin {
  return {
    name: 'request-log',
    apollo: requestLogPlugin(logger),
    onResponse: (scope, status) => logRequest(logger, scope, status, scope.identity),
  };
}

/**
 * Records the operation name on the request scope (for the one log line per request
 * the adapters trigger) and logs, with the request id, every error that the client
 * only sees masked (client errors at debug).
 */
export function requestLogPlugin(logger: Logger): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart({ request, contextValue }) {
      contextValue.scope.operationName = request.operationName;
      return {
        async didResolveOperation({ operationName }) {
          contextValue.scope.operationName = operationName ?? undefined;
        },
        async didEncounterErrors({ errors }) {
          logErrors(errors);
        },
        async executionDidStart() {
          return {
            async executionDidEnd() {
              // @defer's later parts, left by the executor: their errors are logged as they are sent.
              mapDeferredParts(contextValue, (part) => {
                for (const entry of part.incremental ?? []) if (entry.errors) logErrors(entry.errors);
                return part;
              });
            },
          };
        },
      };

      function logErrors(errors: readonly GraphQLError[]) {
        for (const error of errors) {
          // A client's mistake (bad query, over a limit) is not the gateway's: debug, without a stack,
          // so any client cannot fill the error log.
          if (isClientSafe(error.extensions?.code)) {
            if (logger.isLevelEnabled('debug')) {
              logger.debug(
                { requestId: contextValue.requestId, code: error.extensions.code, message: error.message },
                'client error',
              );
            }
            continue;
          }
          logger.error(
            { requestId: contextValue.requestId, err: error.originalError ?? error, path: error.path },
            'operation error',
          );
        }
      }
    },
  };
}

/**
 * The request line's logger: the gateway's, without its redaction. Every field of the line is a
 * value this file picks (ids, method, path, names, numbers), never headers, so there is nothing
 * to censor; pino's wildcard paths (`*.headers.…`) would otherwise re-parse every redact path for
 * every field of every line (measured: 15 KB allocated per request, a sixth of what
 * GetUserWithProducts' whole pipeline allocates; docs/performance.md, issue 31).
 */
const lineLoggers = new WeakMap<Logger, Logger>();

function lineLogger(logger: Logger): Logger {
  let line = lineLoggers.get(logger);
  if (!line) {
    // Level `info` of its own: the gateway logger's level (which may change) is checked before each line.
    line = logger.child({}, { level: 'info', redact: { paths: [] } });
    lineLoggers.set(logger, line);
  }
  return line;
}

/** The one line per request. URL query strings are left out: GET requests carry variables there. */
export function logRequest(
  logger: Logger,
  scope: GatewayContext['scope'],
  status: number,
  identity?: GatewayContext['identity'],
): void {
  // On the hot path: skip building the line when info is off (the bench runs at warn).
  if (!logger.isLevelEnabled('info')) return;
  const durationMs = Number(process.hrtime.bigint() - scope.startedAt) / 1e6;
  lineLogger(logger).info(
    {
      requestId: scope.requestId,
      method: scope.method,
      path: clipped(scope.url.split('?')[0] as string, MAX_LOGGED_CHARS),
      operationName: clippedName(scope.operationName),
      // A batch: each operation's name, in order (its length is the number of operations).
      ...(scope.batchOperations && {
        batch: scope.batchOperations.map((operation) => clippedName(operation.operationName)),
      }),
      status,
      durationMs: Math.round(durationMs * 1000) / 1000,
      ...(identity?.subject !== undefined && { subject: identity.subject }),
      ...(identity?.consumer !== undefined && { consumer: identity.consumer }),
      ...(scope.entityCache && logger.isLevelEnabled('debug') && { entityCache: hitRatio(scope.entityCache) }),
    },
    'request completed',
  );
}

/**
 * The longest path or operation name a line carries, in UTF-16 units. Both are the client's to
 * choose (a name as long as the document allows, a path as long as the header limit): uncut, one
 * client could make every line of the log kilobytes long and fill the log queue for everyone.
 */
export const MAX_LOGGED_CHARS = 256;

function clippedName(name: string | null | undefined): string | null {
  return name == null ? null : clipped(name, MAX_LOGGED_CHARS);
}

/** `text` cut to `max` units and marked with '…', never between the two halves of a surrogate pair. */
function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** The entity cache's share of this request's lookups (debug only: one more object per line). */
function hitRatio({ hits, misses }: { hits: number; misses: number }) {
  const total = hits + misses;
  return { hits, misses, hitRatio: total === 0 ? null : Math.round((hits / total) * 1000) / 1000 };
}
