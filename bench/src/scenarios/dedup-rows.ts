/** Our dedups one at a time (§F): the setup and the words after the query in the variant name. */
export const OUR_DEDUP_VARIANTS = [
  { setup: 'no-dedup', words: 'no dedup' },
  { setup: 'subgraph-dedup', words: 'subgraph dedup' },
  { setup: 'inbound-dedup', words: 'inbound dedup' },
] as const;

/** The variant name of a dedup row: `Dashboard · dedup` (compared with the Router's row of the same name). */
export function dedupVariant(query: string): string {
  return `${query} · dedup`;
}

/** The variant name of a row on @apollo/gateway's own executor (QUERY_PLAN_EXECUTOR=apollo). */
export function apolloExecutorVariant(query: string): string {
  return `${query} · apollo executor`;
}

/** The variant name of a row planned by Apollo's planner (QUERY_PLANNER=apollo; the default is Hive's, ADR 062). */
export function apolloPlannerVariant(query: string): string {
  return `${query} · apollo planner`;
}

/** The variant name of a row whose requests ask for a compressed answer (the `compression` setup). */
export function compressedVariant(query: string): string {
  return `${query} · compressed`;
}
