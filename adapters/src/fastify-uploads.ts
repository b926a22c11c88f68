import type { MountableGateway } from '@fedgw/gateway/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientAddressOf } from './client-address.js';
import {
  endUploadWithResponse,
  isMultipartFormData,
  lingerAfterResponse,
  UploadRefusedError,
  uploadRefusedUnread,
} from './uploads.js';

/**
 * `multipart/form-data` on the gateway's path: a body parser that hands the request's stream to
 * the gateway's upload receiver, and gives Apollo the operation `operations` and `map` make, its
 * files still unread. A refusal fails the parser with an UploadRefusedError, which the plugin's
 * error handler sends as it is.
 */
export function parseUploads(
  graphql: FastifyInstance,
  gateway: Pick<MountableGateway, 'uploads' | 'clientAddress'>,
): void {
  const ends = new WeakMap<FastifyRequest, () => void>();
  graphql.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload, done) => {
    const refused = uploadRefusedUnread(gateway, request.headers);
    if (refused) return done(new UploadRefusedError(refused));
    const address = clientAddressOf(gateway, request.raw);
    gateway.uploads?.receive({ headers: request.headers, address, body: payload }).then((received) => {
      if ('refusal' in received) return done(new UploadRefusedError(received.refusal));
      ends.set(request, received.end);
      done(null, received.body);
    }, done);
  });
  graphql.addHook('onRequest', async (request, reply) => {
    if (!isMultipartFormData(request.headers)) return;
    lingerAfterResponse(request.raw, reply.raw);
    // Bound here, not in a later hook: a request refused after its body was parsed (a later hook
    // answering) skips preHandler, and its upload would never end.
    endUploadWithResponse(reply.raw, () => ends.get(request)?.());
  });
}
