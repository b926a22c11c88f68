import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { RequestScope, StreamOutcome } from '@fedgw/gateway/contract';
import { type DocumentNode, GraphQLError, parse } from 'graphql';
import { createRequestScope } from '../request-scope.js';

// Headers a connection_init payload may not set: they describe the connection itself.
const CONNECTION_HEADERS = new Set([
  'host',
  'connection',
  'upgrade',
  'content-length',
  'transfer-encoding',
  'keep-alive',
]);
const MAX_PAYLOAD_HEADERS = 64;

/**
 * The headers an operation on a WebSocket is seen with: the upgrade request's, then what the
 * client put in `connection_init` (browsers cannot set headers on a WebSocket), either as
 * `{ headers: { authorization } }` or flat `{ authorization }`. String values only; names lower-cased.
 */
export function connectionHeaders(request: IncomingMessage, payload: unknown): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = { ...request.headers };
  if (!payload || typeof payload !== 'object') return headers;
  const given = (payload as { headers?: unknown }).headers;
  const source = given && typeof given === 'object' ? given : payload;
  let count = 0;
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (typeof value !== 'string' || CONNECTION_HEADERS.has(lower) || lower.startsWith('sec-websocket-')) continue;
    if (++count > MAX_PAYLOAD_HEADERS) break;
    headers[lower] = value;
  }
  return headers;
}

/**
 * One operation's scope on a streaming connection: its own request id, the connection's headers,
 * and the client address of the request that opened it (clientAddressOf).
 */
export function streamScope(
  method: string,
  request: IncomingMessage,
  headers: IncomingHttpHeaders,
  ip: string,
): RequestScope {
  return createRequestScope(
    { method, url: request.url ?? '/', headers, ip },
    // Nothing to add headers to once the stream is open.
    () => {},
  );
}

/** A refusal as GraphQLErrors (graphql-ws's `error` message), its code kept. */
export function refusalErrors(outcome: Extract<StreamOutcome, { kind: 'answer' }>): GraphQLError[] {
  return (outcome.result.errors ?? [{ message: 'Refused' }]).map(
    (error) => new GraphQLError(error.message, { extensions: { ...error.extensions } }),
  );
}

/** True for a refusal (a 4xx/5xx answer with no data): sent as an error, not as a result. */
export function isRefusal(outcome: StreamOutcome): outcome is Extract<StreamOutcome, { kind: 'answer' }> {
  return outcome.kind === 'answer' && outcome.status >= 400 && outcome.result.data === undefined;
}

// The transports pick execute or subscribe from the operation type of the document they are given;
// the gateway already ran the real one, so these stand-ins only carry that type.
export const STAND_IN: Readonly<Record<'answer' | 'stream', DocumentNode>> = {
  answer: parse('query StandIn { __typename }'),
  stream: parse('subscription StandIn { __typename }'),
};
