import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { MountableGateway, Refusal } from '@fedgw/gateway/contract';
import { errorBody } from './http-errors.js';

/** A body in the GraphQL multipart request spec's type: file uploads. */
export function isMultipartFormData(headers: IncomingHttpHeaders): boolean {
  return /^\s*multipart\/form-data\s*(?:;|$)/i.test(headers['content-type'] ?? '');
}

const REFUSED_UNREAD = { 'content-type': 'application/json; charset=utf-8', connection: 'close' } as const;

/**
 * Refused before a byte is read, with `Connection: close` (so Node drops the socket rather than
 * read the rest): uploads off (UPLOADS), or a compressed multipart body (the upload limits count
 * the bytes as they come, so its files are not inflated first).
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

/**
 * Once the upload's operation is handed on: the response says `Connection: close` when the
 * request still has unread bytes as it starts (a file the operation never read, an upload cut at
 * a limit), and the upload is ended (its parser stopped) once the response is over.
 */
export function endUploadWithResponse(req: IncomingMessage, res: ServerResponse, end: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete && !this.headersSent) this.setHeader('connection', 'close');
    return writeHead.apply(this, args);
  } as typeof writeHead;
  res.once('close', end);
}
