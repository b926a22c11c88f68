// How refusals are reported, as Apollo Router's `authorization.directives.errors` lets you
// choose: each refused field's UNAUTHORIZED_FIELD_OR_TYPE in the answer's `errors` (default),
// in its `extensions.authorizationErrors` (clients that throw on any error keep working), or
// nowhere; and one log line per request with refusals (throttled, never a credential).
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { GatewayContext } from '../../plugin-sdk/index.js';
import { type Logger, LogThrottle } from '../../plugin-sdk/index.js';
import type { AuthorizationErrorLocation } from './options.js';

/** The extension key Apollo Router uses for `errors.response: extensions`. */
export const AUTHORIZATION_ERRORS_EXTENSION = 'authorizationErrors';

type Reportable = GraphQLError | GraphQLFormattedError;
const formatted = (error: Reportable): GraphQLFormattedError =>
  error instanceof GraphQLError ? error.toJSON() : error;

/**
 * `result` with `refusals` placed where `location` says, beside its own `errors`. Used for an
 * answer, a subscription event and a deferred entry alike (each keeps its other fields).
 */
export function placeRefusals<
  R extends { errors?: readonly Reportable[]; extensions?: Record<string, unknown> | undefined },
>(result: R, refusals: readonly Reportable[], location: AuthorizationErrorLocation): R {
  if (refusals.length === 0 || location === 'disabled') return result;
  if (location === 'errors') return { ...result, errors: [...refusals, ...(result.errors ?? [])] };
  const already = result.extensions?.[AUTHORIZATION_ERRORS_EXTENSION];
  const listed = [...(Array.isArray(already) ? already : []), ...refusals.map(formatted)];
  return { ...result, extensions: { ...result.extensions, [AUTHORIZATION_ERRORS_EXTENSION]: listed } };
}

/** At most this many lines per interval, the rest counted (one client must not flood the log). */
const LOG_LIMIT = 20;
const LOG_INTERVAL_MS = 10_000;
/** Paths named per line: an operation with thousands of refusals still writes a short line. */
const MAX_LOGGED_PATHS = 20;

/**
 * One `info` line per request with refusals: its request id, operation name, the refused
 * paths and whether they were refused or only would be (dry run). Never the identity, its
 * claims or a header.
 */
export function refusalLog(
  logger: Logger | undefined,
): (context: GatewayContext, details: () => RefusalDetails) => void {
  if (!logger) return () => {};
  const throttle = new LogThrottle(LOG_LIMIT, LOG_INTERVAL_MS);
  return (context, details) => {
    const suppressed = throttle.take();
    if (suppressed === undefined) return;
    const { operationName, paths, outcome } = details();
    logger.info(
      {
        requestId: context.requestId,
        operationName,
        refused: paths.length,
        paths: paths.slice(0, MAX_LOGGED_PATHS).map((path) => path.join('.')),
        outcome,
        ...(suppressed > 0 && { suppressed }),
      },
      outcome === 'dry-run' ? 'authorization would refuse fields (dry run)' : 'authorization refused fields',
    );
  };
}

export interface RefusalDetails {
  readonly operationName: string | null;
  readonly paths: readonly (readonly string[])[];
  /** `filtered`: answered null; `rejected`: the request refused whole; `dry-run`: nothing refused. */
  readonly outcome: 'filtered' | 'rejected' | 'dry-run';
}
