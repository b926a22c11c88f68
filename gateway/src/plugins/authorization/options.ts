import { defaultsOf, nonEmpty, oneOf, withDefault } from '../../contract/kit.js';

export const AUTHORIZATION_MODES = ['filter', 'reject'] as const;
/** `filter`: answer what the request may see (Apollo Router's default); `reject`: refuse it all. */
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** The options' schemas and defaults; AUTHORIZATION_MODE and AUTHORIZATION_SCOPE_CLAIM are read with them. */
export const AUTHORIZATION_VALUES = Object.freeze({
  mode: withDefault(oneOf(AUTHORIZATION_MODES), 'filter'),
  scopeClaim: withDefault(nonEmpty, 'scope'),
});
export const AUTHORIZATION_DEFAULTS = defaultsOf(AUTHORIZATION_VALUES);
