import type { GraphQLFormattedError } from 'graphql';
import { isClientSafe } from '../error-registry.js';
import type { SubgraphErrors } from '../subgraph-overrides.js';

/** What a client reads instead of a subgraph's own message (Apollo Router's words for it). */
export const REDACTED_SUBGRAPH_MESSAGE = 'Subgraph errors redacted';

/**
 * The errors of a subgraph's answer as clients may see them (SUBGRAPH_ERRORS, Apollo Router's
 * `include_subgraph_errors`): `all` passes them as written; `codes` passes those whose
 * `extensions.code` is client-safe (error-registry.ts) and redacts the rest; `mask` redacts every
 * one. A redacted error keeps its path and its code (a client can still branch on
 * BAD_USER_INPUT), nothing else: no message, no other extension (a stack, a SQL error, a URL).
 * Only what the subgraph wrote goes through here: the gateway's own errors for a failed fetch
 * (GATEWAY_TIMEOUT…) and a plugin's answer are the gateway's words. `undefined` when none changed.
 */
export function redactSubgraphErrors(
  errors: readonly GraphQLFormattedError[] | undefined,
  mode: SubgraphErrors,
): GraphQLFormattedError[] | undefined {
  if (mode === 'all' || !errors || errors.length === 0) return undefined;
  let changed = false;
  const shown = errors.map((error) => {
    const code = error?.extensions?.code;
    if (mode === 'codes' && isClientSafe(code)) return error;
    changed = true;
    return {
      message: REDACTED_SUBGRAPH_MESSAGE,
      ...(error?.path && { path: error.path }),
      ...(code !== undefined && { extensions: { code } }),
    };
  });
  return changed ? shown : undefined;
}
