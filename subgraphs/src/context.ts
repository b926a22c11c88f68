/**
 * What every resolver receives. Only the request headers: the subgraphs trust the
 * gateway to have authenticated the caller and to forward the identity as `x-user-id`.
 */
export interface SubgraphContext {
  /** Lower-cased header names (Apollo's HeaderMap is a Map, so tests can pass a plain Map). */
  readonly headers: ReadonlyMap<string, string>;
  /**
   * What a mutation changed, for the gateway's entity cache: sent back in the answer's
   * `extensions.invalidation` (Apollo Router's shape). Absent in tests that build a context by hand.
   */
  readonly invalidate?: CacheInvalidation[];
}

/** One `extensions.invalidation` item: a subgraph's entries, a type's, or one entity's. */
export type CacheInvalidation =
  | { kind: 'subgraph'; subgraph: string }
  | { kind: 'type'; subgraph: string; type: string }
  | { kind: 'entity'; subgraph: string; type: string; key: Record<string, unknown> };

export const IDENTITY_HEADER = 'x-user-id';

/** The caller's user id, or null when the identity header is absent or blank. */
export function identityOf(context: SubgraphContext): string | null {
  const value = context.headers.get(IDENTITY_HEADER)?.trim();
  return value ? value : null;
}
