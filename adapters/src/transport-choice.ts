import type { IncomingMessage } from 'node:http';
import type { SubscriptionEndpoint, Transport } from '@fedgw/gateway/contract';
import { errorBody } from './http-errors.js';
import { selectedOperationType } from './subscriptions/operation-type.js';

/**
 * Which transport answers a request on the GraphQL path, for the mounts: the gateway's rule
 * (`SubscriptionEndpoint.transportFor`: the client's preference by q-value, then order, over
 * what the request can have) applied to the operation the request carries.
 *
 * - a query or a mutation can have JSON, or graphql-sse's distinct mode (`text/event-stream`)
 *   when the client asks for it first; with `@defer` or `@stream` in its text, Apollo's multipart too;
 * - a subscription can have graphql-sse's distinct mode or Apollo's multipart HTTP;
 * - an operation sent by id only (a persisted query) any of them.
 *
 * None acceptable: JSON when the client accepts it (plain HTTP then answers, or refuses a
 * subscription with SUBSCRIPTION_NOT_SUPPORTED), else 406 NOT_ACCEPTABLE (`NOT_ACCEPTABLE_ANSWER`).
 */
const QUERY: readonly Transport[] = ['json', 'event-stream'];
const DEFERRING_QUERY: readonly Transport[] = ['json', 'multipart-defer', 'event-stream'];
const SUBSCRIPTION: readonly Transport[] = ['multipart-subscription', 'event-stream'];
const ANY: readonly Transport[] = ['json', 'multipart-subscription', 'multipart-defer', 'event-stream'];
const STREAMS: readonly Transport[] = ['multipart-subscription', 'event-stream'];

type Chooser = Pick<SubscriptionEndpoint, 'transportFor'>;

export const NOT_ACCEPTABLE_ANSWER = {
  status: 406,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: errorBody(
    "The request's Accept header refuses every answer this operation can have: accept application/json (or application/graphql-response+json), text/event-stream, or for a subscription, @defer or @stream multipart/mixed.",
    'NOT_ACCEPTABLE',
  ),
} as const;

/**
 * Before the body is read: whether the client prefers graphql-sse's event stream to every other
 * transport, whatever the operation (a request graphql-sse then reads and answers whole).
 */
export function prefersEventStream(endpoint: Chooser | undefined, accept: string | string[] | undefined): boolean {
  return endpoint?.transportFor(accept, ANY) === 'event-stream';
}

/**
 * Whether the Accept could make the operation's type matter (it names a streaming transport,
 * or refuses JSON): only then does a mount read the operation before plain HTTP does.
 */
export function mayNeedOperation(endpoint: Chooser, accept: string | string[] | undefined): boolean {
  return endpoint.transportFor(accept, STREAMS) !== 'json';
}

/** The transport for the operation in `body` (a POST's parsed JSON) or in the URL (a GET); undefined: 406. */
export function transportForOperation(
  endpoint: Chooser,
  req: Pick<IncomingMessage, 'headers' | 'method' | 'url'>,
  body: unknown,
): Transport | undefined {
  // A batch is plain HTTP's (BATCHING_MAX_OPERATIONS).
  if (Array.isArray(body)) return endpoint.transportFor(req.headers.accept, ['json']);
  const { query, operationName } = operationOf(req, body);
  let offers = ANY;
  if (typeof query === 'string') {
    const type = selectedOperationType(query, typeof operationName === 'string' ? operationName : undefined);
    // A document that does not lex, or names no known operation: plain HTTP answers its error.
    if (type === undefined) offers = QUERY;
    else if (type === 'subscription') offers = SUBSCRIPTION;
    else offers = query.includes('@defer') || query.includes('@stream') ? DEFERRING_QUERY : QUERY;
  }
  return endpoint.transportFor(req.headers.accept, offers);
}

/**
 * graphql-sse's handler serves its distinct mode only to `Accept: text/event-stream` exactly;
 * once the event stream is chosen for a longer list (urql's), it gets that.
 */
export function asEventStreamRequest(req: IncomingMessage): void {
  req.headers.accept = 'text/event-stream';
}

function operationOf(req: Pick<IncomingMessage, 'method' | 'url'>, body: unknown): Record<string, unknown> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const search = new URL(req.url ?? '/', 'http://localhost/').searchParams;
    return { query: search.get('query') ?? undefined, operationName: search.get('operationName') ?? undefined };
  }
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
