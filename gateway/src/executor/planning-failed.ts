import { GraphQLError } from 'graphql';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import { LogThrottle } from '../log-throttle.js';
import type { Logger } from '../logger.js';

const MESSAGE = 'The operation cannot be planned over this supergraph; the gateway log says why.';

/**
 * What a client sees when a query planner refuses its operation (a field no subgraph can reach,
 * e.g. one only a non-resolvable `@interfaceObject` has): 400 `QUERY_PLANNING_FAILED`, as Apollo
 * Router answers, never the planner's own message (it names subgraphs and plan internals) and
 * never a 500. The reason goes to the log, throttled, since a client can send one per request.
 */
export function planningFailed(error: unknown, logger: Logger): GraphQLError {
  // The gateway's own coded refusals on the way (e.g. @defer in a subscription) stay as they are.
  if (error instanceof GraphQLError && typeof error.extensions.code === 'string') return error;
  const suppressed = throttle.take();
  if (suppressed !== undefined) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn({ reason, suppressed }, 'a query planner refused an operation: answered 400 QUERY_PLANNING_FAILED');
  }
  return httpError(ClientErrorCode.QUERY_PLANNING_FAILED, MESSAGE);
}

/** Ten lines a minute per process, the rest counted. */
const throttle = new LogThrottle(10, 60_000);
