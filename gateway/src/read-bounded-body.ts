import type { Dispatcher } from 'undici';

type Body = Dispatcher.ResponseData['body'];

/** The body was longer than the limit; the read was aborted (and its connection discarded). */
export const TOO_LARGE = Symbol('too large');

/**
 * What a response's content-length says of its body, against `limit`: `over` (abandon it
 * unread); `within`, a finite length (undici never reads past it, so the body can be read
 * whole, as `body.text()` reads it); `unknown`, none or not a number (count bytes as they come).
 * The one rule for both readers: this file's, and the subgraph fetch's dispatch handler.
 */
export function declaredLength(length: string | string[] | undefined, limit: number): 'over' | 'within' | 'unknown' {
  const declared = Number(length);
  if (declared > limit) return 'over';
  return length !== undefined && Number.isFinite(declared) ? 'within' : 'unknown';
}

/**
 * Reads a response body (a polled supergraph document) as text, never holding more than
 * `limit` bytes. A body announced (content-length) or found to be larger is destroyed at
 * once: undici then closes that connection instead of returning a half-read socket to the pool.
 */
export async function readBoundedBody(
  body: Body,
  headers: Dispatcher.ResponseData['headers'],
  limit: number,
): Promise<{ text: string; bytes: number } | typeof TOO_LARGE> {
  const length = headers['content-length'];
  const declared = declaredLength(length, limit);
  if (declared === 'over') {
    discardBody(body);
    return TOO_LARGE;
  }
  if (declared === 'within') return { text: await body.text(), bytes: Number(length) };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      discardBody(body);
      return TOO_LARGE;
    }
    chunks.push(chunk);
  }
  return { text: utf8Text(Buffer.concat(chunks, size)), bytes: size };
}

/** A UTF-8 byte order mark. */
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * A body as text, decoded as undici's `body.text()` decodes one: UTF-8, a leading byte order
 * mark skipped. For both readers, whether the body came with a content-length or chunked.
 */
export function utf8Text(body: Buffer): string {
  const start = body[0] === BOM[0] && body[1] === BOM[1] && body[2] === BOM[2] ? 3 : 0;
  return body.toString('utf8', start);
}

/**
 * Stops reading a body. undici then destroys its socket rather than reuse a connection
 * with unread bytes; the abort error it emits is expected, so it is swallowed here (an
 * unhandled one would crash the process).
 */
export function discardBody(body: Body): void {
  body.on('error', () => {});
  body.destroy();
}
