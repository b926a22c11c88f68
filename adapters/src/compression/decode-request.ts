import type { IncomingHttpHeaders } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The request body codings accepted on every mount (Express's body parser knows the same). */
const DECODERS = { gzip: createGunzip, deflate: createInflate, br: createBrotliDecompress } as const;
export type RequestCoding = keyof typeof DECODERS;

/** What the adapters' error mapping reads: a 4xx status and what went wrong. */
export class BodyCodingError extends Error {
  constructor(
    readonly statusCode: 413 | 415,
    readonly type: 'encoding.unsupported' | 'entity.too.large',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The body's coding (undefined: identity or no body), or a 415 error for one we cannot decode:
 * an unknown coding or several stacked (`gzip, br`). Checked on every mount before any byte of
 * the body is read, so each answers the same.
 */
export function requestCoding(headers: IncomingHttpHeaders): RequestCoding | BodyCodingError | undefined {
  const header = headers['content-encoding'];
  if (header === undefined || !hasBody(headers)) return undefined;
  const coding = header.trim().toLowerCase();
  if (coding === '' || coding === 'identity') return undefined;
  if (Object.hasOwn(DECODERS, coding)) return coding as RequestCoding;
  return new BodyCodingError(415, 'encoding.unsupported', `Unsupported Content-Encoding "${header}".`);
}

/**
 * `body` decoded, as a stream that fails with 413 as soon as the decoded bytes pass `limitBytes`:
 * the limit is on what the body inflates to, and a zip bomb is stopped after `limitBytes` of
 * output, not inflated to the end. A corrupt or truncated body fails the stream (zlib's error,
 * without a status: read as 400). `receivedEncodedLength` counts the bytes as they arrived,
 * which Fastify compares with Content-Length.
 */
export function decodeBody(
  body: Readable,
  coding: RequestCoding,
  limitBytes: number,
): Readable & { receivedEncodedLength: number } {
  const decoder = DECODERS[coding]();
  let decoded = 0;
  const limited = Object.assign(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        decoded += chunk.length;
        if (decoded > limitBytes) {
          callback(new BodyCodingError(413, 'entity.too.large', 'Request body is larger than the limit.'));
          return;
        }
        callback(null, chunk);
      },
    }),
    { receivedEncodedLength: 0 },
  );
  body.on('data', (chunk: Buffer) => {
    limited.receivedEncodedLength += chunk.length;
  });
  decoder.on('error', (error) => limited.destroy(Object.assign(error, { statusCode: 400 })));
  limited.on('close', () => {
    body.unpipe(decoder);
    decoder.destroy();
    // Whatever the client still sends is read and dropped, not inflated, so the connection can
    // carry the answer and the next request (Express's body parser does the same).
    if (!body.readableEnded) body.resume();
  });
  body.pipe(decoder).pipe(limited);
  return limited;
}

// Node's own test: a body is framed by Transfer-Encoding or a non-zero Content-Length.
function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}
