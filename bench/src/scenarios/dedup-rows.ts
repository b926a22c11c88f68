/** The variant name of a dedup row: `Dashboard · dedup` (compared with the Router's row of the same name). */
export function dedupVariant(query: string): string {
  return `${query} · dedup`;
}
