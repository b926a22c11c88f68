import type { GraphQLError } from 'graphql';
import type { ClientKeyOf, Clock, ReceivedUpload, Refusal, UploadReceiver, UploadRequest } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpAnswerOf, httpError } from '../http-error.js';
import { UploadSlots } from './client-slots.js';
import { type UploadLimits, UploadSession } from './session.js';

/** Apollo Server's own CSRF headers (csrfPrevention: true): a browser sends one only after a preflight. */
const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'] as const;

/** Apollo Server's words for the same refusal, so a multipart body is refused as any other simple request is. */
const CSRF_MESSAGE =
  "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n";

/**
 * UPLOADS=true: each multipart request gets an UploadSession. A body without a preflight-forcing
 * header, or from a client with UPLOAD_MAX_PER_CLIENT uploads in flight, is refused before a byte
 * of it is read (a form on any site could post one; one client must not hold every subgraph
 * connection). The client's slot is held until its session ends, however it ends.
 */
export function uploadReceiver(
  limits: UploadLimits & { readonly maxPerClient: number },
  clock: Clock,
  keyOf: ClientKeyOf,
  slots = new UploadSlots(limits.maxPerClient, keyOf),
): UploadReceiver {
  return {
    async receive(request: UploadRequest): Promise<ReceivedUpload> {
      const preflighted = PREFLIGHT_HEADERS.some((name) => {
        const value = request.headers[name];
        return typeof value === 'string' && value !== '';
      });
      if (!preflighted) return { refusal: refusalOf(httpError(ClientErrorCode.BAD_REQUEST, CSRF_MESSAGE)) };
      const slot = slots.take(request.address);
      if (!slot) return { refusal: refusalOf(tooMany(limits.maxPerClient)) };
      let session: UploadSession;
      try {
        session = new UploadSession(request.headers, request.body, limits, clock);
      } catch {
        slot.release();
        // busboy throws on a Content-Type without a boundary.
        const error = httpError(
          ClientErrorCode.BAD_REQUEST,
          'Upload refused: the multipart Content-Type has no boundary.',
        );
        return { refusal: refusalOf(error) };
      }
      const opened = await session.opened;
      const end = () => {
        session.end();
        slot.release();
      };
      if ('refused' in opened) {
        end();
        return { refusal: refusalOf(opened.refused) };
      }
      return { body: opened.body, end };
    },
  };
}

const tooMany = (max: number) =>
  httpError(
    ClientErrorCode.UPLOAD_LIMIT_EXCEEDED,
    `Upload refused: this address has ${max} uploads in flight, the most it may (UPLOAD_MAX_PER_CLIENT).`,
  );

/** The refusal as every mount sends it (the adapters drop what of the body is still unread). */
export function refusalOf(error: GraphQLError): Refusal {
  const { status, error: shown } = httpAnswerOf(error);
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ errors: [{ message: shown.message, extensions: shown.extensions }] }),
  };
}
