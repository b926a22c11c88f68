/**
 * One definition of an HTTP header name and of the headers no plugin may forward, set
 * or read claims into, for every plugin (header rules, response headers, JWT, API key,
 * client awareness).
 */

/** The gateway's request id: its own validated value, sent to every subgraph and in every log line. */
export const REQUEST_ID_HEADER = 'x-request-id';

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
