/**
 * The request methods OpenTelemetry's HTTP conventions know (RFC 9110's, PATCH and QUERY). Node
 * accepts many more (PROPFIND, MKCALENDAR…), and a client picks them: anything else is
 * recorded as `_OTHER`, so a span attribute or a metric label has a bounded set of values.
 */
const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'QUERY',
  'TRACE',
]);

export const OTHER_METHOD = '_OTHER';

export function knownMethod(method: string): string {
  return KNOWN_METHODS.has(method) ? method : OTHER_METHOD;
}
