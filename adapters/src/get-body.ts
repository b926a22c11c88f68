import type { IncomingHttpHeaders } from 'node:http';
import { errorBody } from './http-errors.js';

/**
 * A GET (or HEAD) with a body: refused with 400 BAD_REQUEST on every mount. A GET's body has no
 * meaning (RFC 9110 §9.3.1) and is a request-smuggling vector; before this, the Express mounts
 * parsed it (a bad one got 400 or 413) while the Fastify mounts ignored it (200). An empty
 * `Content-Length: 0`, which some clients send, is no body.
 */
export function getBodyRefusal(
  method: string | undefined,
  headers: IncomingHttpHeaders,
): { status: number; body: string } | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const length = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0)) return undefined;
  return {
    status: 400,
    body: errorBody(
      'A GET request must not have a body: send the operation in the query string, or POST it.',
      'BAD_REQUEST',
    ),
  };
}
