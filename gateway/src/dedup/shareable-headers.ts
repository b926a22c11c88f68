import type { IncomingHttpHeaders } from 'node:http';

/**
 * Subgraph response headers about the answer itself, which a caller that joined another
 * caller's fetch (or execution) may receive as if it had asked: caching and content
 * metadata. Anything else, `set-cookie` first, was meant for the caller that made the
 * request and never reaches the others.
 */
const SHAREABLE: ReadonlySet<string> = new Set([
  'cache-control',
  'content-language',
  'content-type',
  'etag',
  'expires',
  'last-modified',
  'vary',
]);

export function shareableHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const shared: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (SHAREABLE.has(name.toLowerCase())) shared[name] = value;
  return shared;
}
