import type { MountableGateway, Refusal } from '@fedgw/gateway/contract';
import type { RequestHandler } from 'express';
import { clientAddressOf } from './client-address.js';
import { compressResponse } from './compression/compress-response.js';
import { endUploadWithResponse, isMultipartFormData, lingerAfterResponse, uploadRefusedUnread } from './uploads.js';

/**
 * `multipart/form-data` on the gateway's path: the gateway's upload receiver reads `operations`
 * and `map` from the request as a stream, and the operation goes straight to `apollo` as a
 * parsed body would (past the body parsers, which would read the rest), its files still unread.
 */
export function readUploads(
  gateway: Pick<MountableGateway, 'uploads' | 'compression' | 'clientAddress'>,
  apollo: RequestHandler,
): RequestHandler {
  return (req, res, next) => {
    if (!isMultipartFormData(req.headers)) return next();
    lingerAfterResponse(req, res);
    const send = ({ status, headers, body }: Refusal) => void res.status(status).set(headers).send(body);
    const refused = uploadRefusedUnread(gateway, req.headers);
    if (refused) return send(refused);
    const address = clientAddressOf(gateway, req);
    gateway.uploads?.receive({ headers: req.headers, address, body: req }).then((received) => {
      if ('refusal' in received) return send(received.refusal);
      req.body = received.body;
      // As the body parsers' first step does for every other answer.
      if (gateway.compression) compressResponse(req, res, gateway.compression);
      endUploadWithResponse(res, received.end);
      return apollo(req, res, next);
    }, next);
  };
}
