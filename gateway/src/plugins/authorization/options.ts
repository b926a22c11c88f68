import { boolean, defaultsOf, integer, nonEmpty, oneOf, withDefault } from '../../plugin-sdk/index.js';

export const AUTHORIZATION_MODES = ['filter', 'reject'] as const;
/** `filter`: answer what the request may see (Apollo Router's default); `reject`: refuse it all. */
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

export const AUTHORIZATION_ERROR_LOCATIONS = ['errors', 'extensions', 'disabled'] as const;
/**
 * Where a refused field's `UNAUTHORIZED_FIELD_OR_TYPE` goes (Apollo Router's
 * `authorization.directives.errors.response`): the answer's `errors` (default), its
 * `extensions.authorizationErrors`, or nowhere.
 */
export type AuthorizationErrorLocation = (typeof AUTHORIZATION_ERROR_LOCATIONS)[number];

/** The options' schemas and defaults; the AUTHORIZATION_* settings are read with them. */
export const AUTHORIZATION_VALUES = Object.freeze({
  mode: withDefault(oneOf(AUTHORIZATION_MODES), 'filter'),
  scopeClaim: withDefault(nonEmpty, 'scope'),
  /** Apollo Router's `directives.enabled`: false serves every field to every caller (a warning says so). */
  directivesEnabled: withDefault(boolean, true),
  /** Apollo Router's `directives.dry_run`: compute, report and log what would be refused; refuse nothing. */
  dryRun: withDefault(boolean, false),
  errors: withDefault(oneOf(AUTHORIZATION_ERROR_LOCATIONS), 'errors'),
  /** Apollo Router's `directives.errors.log`: one throttled `info` line per request with refusals. */
  log: withDefault(boolean, true),
  /** How long a policy decider may take before the request is refused (fail closed). */
  policyTimeoutMs: withDefault(integer(1, 60_000), 1000),
});
export const AUTHORIZATION_DEFAULTS = defaultsOf(AUTHORIZATION_VALUES);
