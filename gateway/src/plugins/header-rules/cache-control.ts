// Merging the cache-control headers of several subgraph responses into the client's one.

/**
 * The answer may be cached only as the least cacheable part allows: `no-store` wins,
 * then `private` over `public`, and the smallest `max-age` / `s-maxage`.
 */
export function mostRestrictiveCacheControl(values: string[]): string {
  const parsed = values.map(parseCacheControl);
  if (parsed.some((directives) => directives.has('no-store'))) return 'no-store';
  const result: string[] = [];
  if (parsed.some((directives) => directives.has('no-cache'))) result.push('no-cache');
  result.push(parsed.some((directives) => directives.has('private')) ? 'private' : 'public');
  for (const age of ['max-age', 's-maxage']) {
    const ages = parsed.map((directives) => directives.get(age));
    // A response without the directive puts no bound on it... unless it has no max-age at all.
    if (ages.every((value) => value !== undefined)) result.push(`${age}=${Math.min(...ages.map(Number))}`);
    else if (age === 'max-age') result.push('max-age=0');
  }
  return result.join(', ');
}

function parseCacheControl(value: string): Map<string, string | undefined> {
  const directives = new Map<string, string | undefined>();
  for (const part of value.split(',')) {
    const [key, raw] = part.trim().toLowerCase().split('=');
    if (key) directives.set(key, raw);
  }
  return directives;
}
