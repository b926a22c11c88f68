/** What a subgraph's `Cache-Control` allows the entity cache to do with its answer. */
export interface CachePolicy {
  /** Seconds it may be kept; undefined when the header names no age (a default TTL applies). */
  readonly maxAgeSec: number | undefined;
  /** `private`: kept only under the caller's identity, never served to another. */
  readonly private: boolean;
  /** `no-store` or `no-cache`: never kept. */
  readonly noStore: boolean;
}

const NO_HEADER: CachePolicy = { maxAgeSec: undefined, private: false, noStore: false };

/**
 * RFC 9111 response directives, as a shared cache reads them: `s-maxage` wins over `max-age`
 * for a public answer; a private answer is kept for its `max-age`. A directive repeated or
 * unparseable counts as absent; several headers are joined with commas first.
 */
export function cachePolicy(header: string | string[] | undefined): CachePolicy {
  if (header === undefined) return NO_HEADER;
  const text = Array.isArray(header) ? header.join(',') : header;
  let maxAge: number | undefined;
  let sMaxAge: number | undefined;
  let isPrivate = false;
  let noStore = false;
  for (const part of text.split(',')) {
    const [rawName, rawValue] = part.split('=', 2) as [string, string | undefined];
    const name = rawName.trim().toLowerCase();
    const value = rawValue?.trim().replace(/^"(.*)"$/, '$1');
    if (name === 'no-store' || name === 'no-cache') noStore = true;
    else if (name === 'private') isPrivate = true;
    else if (name === 'max-age') maxAge = seconds(value);
    else if (name === 's-maxage') sMaxAge = seconds(value);
  }
  const maxAgeSec = isPrivate ? maxAge : (sMaxAge ?? maxAge);
  return { maxAgeSec, private: isPrivate, noStore };
}

function seconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return undefined;
  return Number(value);
}
