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
 * Both are the subgraph's text too, so only their shapes pass: a code that is a constant's name
 * (`BAD_USER_INPUT`, `P2002`), not a sentence (`ER_DUP_ENTRY 'ann@example.com'`); a path of
 * GraphQL names and indices, cut before the first entry that is neither.
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
    const path = error?.path && namesOnly(error.path);
    return {
      message: REDACTED_SUBGRAPH_MESSAGE,
      ...(path && path.length > 0 && { path }),
      ...(typeof code === 'string' && CODE.test(code) && { extensions: { code } }),
    };
  });
  return changed ? shown : undefined;
}

/** An error code as codes are written: a constant's name, never free text. */
const CODE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** A field name or alias (GraphQL's Name). */
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** The path up to its first entry that is not a field name or a list index. */
function namesOnly(path: readonly unknown[]): (string | number)[] {
  const kept: (string | number)[] = [];
  if (!Array.isArray(path)) return kept;
  for (const entry of path) {
    if (!((typeof entry === 'string' && NAME.test(entry)) || (Number.isInteger(entry) && (entry as number) >= 0)))
      break;
    kept.push(entry as string | number);
  }
  return kept;
}
