import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestIdHeader, RequestScope } from '@fedgw/gateway/contract';

// A client-chosen id is kept only if it is short and plain, so it cannot inject into logs.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Typed by the core's own spelling (header-names.ts): the adapters import its types only.
export const REQUEST_ID_HEADER: RequestIdHeader = 'x-request-id';

export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const given = headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

export function createRequestScope(
  request: {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    ip: string | undefined;
    /** The gateway's scheme for the request (schemeOf: TLS, or a trusted proxy's word). */
    protocol?: string;
  },
  appendResponseHeader: RequestScope['appendResponseHeader'],
): RequestScope {
  return {
    appendResponseHeader,
    requestId: requestIdFrom(request.headers),
    method: request.method,
    url: request.url,
    headers: request.headers,
    ip: request.ip ?? '',
    scheme: request.protocol === 'https' ? 'https' : 'http',
    startedAt: process.hrtime.bigint(),
    // Set later by the gateway; present from the start so every scope keeps one shape.
    operationName: undefined,
    identity: undefined,
  };
}
