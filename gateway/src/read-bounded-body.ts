import type { Dispatcher } from 'undici';

type Body = Dispatcher.ResponseData['body'];

/** The body was longer than the limit; the read was aborted (and its connection discarded). */
export const TOO_LARGE = Symbol('too large');

/**
 * Reads a subgraph response body as text, never holding more than `limit` bytes. A body
 * announced (content-length) or found to be larger is destroyed at once: undici then
 * closes that connection instead of returning a half-read socket to the pool.
 */
export async function readBoundedBody(
  body: Body,
  headers: Dispatcher.ResponseData['headers'],
  limit: number,
): Promise<{ text: string; bytes: number } | typeof TOO_LARGE> {
  const declared = Number(headers['content-length']);
  if (declared > limit) {
    discardBody(body);
    return TOO_LARGE;
  }
  // undici never reads past a content-length, so a declared length within the limit is safe to read whole.
  if (headers['content-length'] !== undefined && Number.isFinite(declared)) {
    return { text: await body.text(), bytes: declared };
  }
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
  return { text: Buffer.concat(chunks, size).toString('utf8'), bytes: size };
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
