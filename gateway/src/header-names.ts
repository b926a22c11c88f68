import type { RequestIdHeader } from './contract/index.js';

/**
 * One definition of an HTTP header name and of the headers no plugin may forward, set
 * or read claims into, for every plugin (header rules, response headers, JWT, API key,
 * client awareness).
 */

/** The gateway's request id: its own validated value, sent to every subgraph and in every log line. */
export const REQUEST_ID_HEADER = 'x-request-id' satisfies RequestIdHeader;

/**
 * A trace's context as the propagators write it (OTEL_PROPAGATORS: W3C `tracecontext`, `b3`,
 * `b3multi`): different on every request by design, so deduplication keys leave them out.
 * Not `baggage`: its entries are the client's content and may tell callers apart.
 */
export const TRACE_CONTEXT_HEADERS: readonly string[] = [
  'traceparent',
  'tracestate',
  'b3',
  'x-b3-traceid',
  'x-b3-spanid',
  'x-b3-parentspanid',
  'x-b3-sampled',
  'x-b3-flags',
];

/** An HTTP field name (RFC 9110 `token`), matched in lower case as Node reports incoming headers. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

export function isHeaderName(value: unknown): value is string {
  return typeof value === 'string' && HEADER_NAME.test(value.toLowerCase());
}

/**
 * Reserved: connection-level headers (undici and Node own the framing), headers that
 * describe a body the gateway builds itself, and headers the gateway sets itself
 * (`x-request-id`, always its own validated value).
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'accept-encoding',
  'accept',
  REQUEST_ID_HEADER,
]);
