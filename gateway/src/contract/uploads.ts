import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Refusal } from './origin-policy.js';

/** A multipart request as an adapter hands it over: its headers, and its body still unread. */
export interface UploadRequest {
  readonly headers: IncomingHttpHeaders;
  /** The client's address, as the gateway's `clientAddress` decides it (TRUSTED_PROXIES applied). */
  readonly address: string;
  /** The body as it comes (decoded when it has a Content-Encoding): read as a stream, never whole. */
  readonly body: Readable;
}

/**
 * What the gateway made of a multipart request's `operations` and `map` (the files still to come):
 * the operation to hand to Apollo Server as a JSON body would be, and `end`, to call once the
 * response is over; or the refusal to send.
 */
export type ReceivedUpload = { readonly body: Record<string, unknown>; end(): void } | { readonly refusal: Refusal };

/** File uploads (UPLOADS): reads `multipart/form-data` requests on the GraphQL path. */
export interface UploadReceiver {
  receive(request: UploadRequest): Promise<ReceivedUpload>;
}
