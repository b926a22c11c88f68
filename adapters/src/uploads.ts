import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { MountableGateway, Refusal } from '@fedgw/gateway/contract';
import { errorBody } from './http-errors.js';

/** A body in the GraphQL multipart request spec's type: file uploads. */
export function isMultipartFormData(headers: IncomingHttpHeaders): boolean {
  return /^\s*multipart\/form-data\s*(?:;|$)/i.test(headers['content-type'] ?? '');
}

const REFUSED_UNREAD = { 'content-type': 'application/json; charset=utf-8' } as const;

/**
 * Refused before a byte is read: uploads off (UPLOADS), or a compressed multipart body (the
 * upload limits count the bytes as they come, so its files are not inflated first).
 */
export function uploadRefusedUnread(
  gateway: Pick<MountableGateway, 'uploads'>,
  headers: IncomingHttpHeaders,
): Refusal | undefined {
  if (!gateway.uploads)
    return {
      status: 415,
      headers: REFUSED_UNREAD,
      body: errorBody('File uploads are not accepted here (UPLOADS is off).', 'UNSUPPORTED_MEDIA_TYPE'),
    };
  const coding = headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity')
    return {
      status: 415,
      headers: REFUSED_UNREAD,
      body: errorBody('A multipart upload cannot have a Content-Encoding.', 'UNSUPPORTED_MEDIA_TYPE'),
    };
  return undefined;
}

/** A refusal an adapter's error handler sends as it is (Fastify's body parser can only fail). */
export class UploadRefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super('upload refused');
  }
}

/** What of an upload's unread body is discarded after its answer, at most, before its socket is closed. */
const LINGER_MAX_BYTES = 8 * 1024 * 1024;
const LINGER_MAX_MS = 5000;

/**
 * An upload answered before its body ended (refused, cut at a limit, a file nobody read): closing
 * at once would have the client, still writing, get a reset that can beat the answer to it. So
 * the rest is read and dropped (a "lingering close", as nginx does) for up to LINGER_MAX_BYTES or
 * LINGER_MAX_MS, then the socket is closed; a body that ends within them leaves it reusable.
 */
export function lingerAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    if (req.complete) return;
    let discarded = 0;
    const cut = () => {
      clearTimeout(timer);
      req.socket?.destroy();
    };
    const timer = setTimeout(cut, LINGER_MAX_MS);
    timer.unref();
    req.unpipe();
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_MAX_BYTES) cut();
    });
    req.once('end', () => clearTimeout(timer));
    req.resume();
  });
}

/** Once the upload's operation is handed on: the upload ends (its parser stops) with the response. */
export function endUploadWithResponse(res: ServerResponse, end: () => void): void {
  res.once('finish', end);
  res.once('close', end);
}
