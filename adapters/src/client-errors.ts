import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ClientErrorCode } from '@fedgw/gateway/contract';
import { errorBody } from './http-errors.js';
import { STATUS_CODES } from './node-http.js';

/** Node's parser errors and timeouts, by the status Node itself answers them with. */
const ANSWERS: Record<string, { status: number; code: ClientErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'BAD_REQUEST', message: 'The request was not received in time.' },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
    message: 'The request headers are too large.',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request has too many chunk extensions.',
  },
};
const MALFORMED = { status: 400, code: 'BAD_REQUEST', message: 'Malformed HTTP request.' } as const;

/**
 * A request Node's HTTP parser cannot read (bad chunked framing, Transfer-Encoding with
 * Content-Length, a header too large, a request timeout) never reaches a framework. Node
 * answers it with an empty 400 and Fastify with its own JSON shape; this answers it on every
 * mount with the gateway's coded error body and the status Node would use, then closes the
 * connection (its framing can no longer be trusted). Runs before any listener the framework
 * added, which then finds the socket destroyed and does nothing.
 */
export function answerClientErrorsCoded(server: Server): void {
  server.prependListener('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A response already on its way (a timeout while answering): writing a second one would corrupt it.
    const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !current?.headersSent) {
      const { status, code, message } = ANSWERS[error.code ?? ''] ?? MALFORMED;
      const body = errorBody(message, code);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  });
}
