import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { MountableGateway, RequestScope } from '@fedgw/gateway/contract';
import { schemeOf } from './client-address.js';
import { errorBody, type HttpErrorResponse } from './http-errors.js';

type Gateway = Pick<MountableGateway, 'origins' | 'admit' | 'requestScheme'>;

/** What a preflight (any OPTIONS on the gateway path) is answered, after it is charged to its client. */
export async function preflightAnswer(
  gateway: Gateway,
  scope: RequestScope,
): Promise<{ status: number; headers: Record<string, string>; body?: string }> {
  const cors = gateway.origins?.preflight(scope.headers).headers ?? {};
  const refusal = await gateway.admit?.(scope);
  if (refusal) return { status: refusal.status, headers: { ...cors, ...refusal.headers }, body: refusal.body };
  return { status: 204, headers: { ...cors } };
}

/** The CORS headers of an answer, or undefined (CORS off: nothing to add, no work per request). */
export function answerHeaders(gateway: Gateway, method: string | undefined, headers: IncomingHttpHeaders) {
  // A preflight (OPTIONS) has its own answer.
  return gateway.origins?.enabled && method !== 'OPTIONS' ? gateway.origins.answerHeaders(headers) : undefined;
}

/**
 * The refusal of a streaming request (SSE, multipart, a WebSocket upgrade) that carries a cookie
 * from an origin that may not send credentials: browsers send cookies on these without any
 * preflight, so the gateway enforces the origin policy itself. The gateway's own origin has the
 * request's scheme (schemeOf), so a page on its host over the other scheme is another origin.
 */
export function crossOriginStreamRefusal(gateway: Gateway, request: IncomingMessage): HttpErrorResponse | undefined {
  if (!gateway.origins || gateway.origins.allowsCredentialedStream(request.headers, schemeOf(gateway, request)))
    return undefined;
  return {
    status: 403,
    body: errorBody(
      'This origin may not open a stream with cookies: it is not allowed to send credentials (CORS_ORIGINS, CORS_ALLOW_CREDENTIALS).',
      'ORIGIN_NOT_ALLOWED',
    ),
  };
}
