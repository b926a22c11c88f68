import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { MountableGateway, StreamParams } from '@fedgw/gateway/contract';
import type { FormattedExecutionResult } from 'graphql';
import { clientAddressOf } from '../client-address.js';
import { REQUEST_ID_HEADER } from '../request-scope.js';
import { closeWhenIdle } from './close-when-idle.js';
import { MULTIPART_CONTENT_TYPE, MultipartStream } from './multipart-stream.js';
import { selectedOperationType } from './operation-type.js';
import { streamScope } from './stream-scope.js';

// Apollo Server's CSRF prevention: a GET it would run carries one of these, or a non-simple content type.
const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'];
const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

export interface MultipartTransport {
  /**
   * The operation, when `req` is a subscription for this transport: its Accept asks for
   * `multipart/mixed;subscriptionSpec=1.0` and the operation it selects is a subscription.
   * Undefined for anything else, which plain HTTP answers (a query sent with that Accept gets
   * its single JSON answer there, as from Apollo Router). `body` is the parsed POST body.
   */
  claim(req: IncomingMessage, body: unknown): StreamParams | undefined;
  /** Runs a claimed operation and writes its response; resolves when the response is over. */
  serve(req: IncomingMessage, res: ServerResponse, params: StreamParams): Promise<void>;
}

/**
 * True when `accept` lists a `multipart/mixed` range with a `subscriptionSpec` parameter, or with
 * no spec parameter at all (urql's), not at q=0. Which transport a request gets when its Accept
 * lists others too is the mounts' choice (transport-choice.ts); this only keeps the claim honest.
 */
export function wantsMultipartSubscription(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',', 64).some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const specs = parameters.filter((parameter) => /^[a-z]*spec\s*=/.test(parameter));
    return (
      type === 'multipart/mixed' &&
      (specs.length === 0 || specs.some((parameter) => parameter.startsWith('subscriptionspec='))) &&
      !parameters.some((parameter) => /^q\s*=\s*0(\.0*)?$/.test(parameter))
    );
  });
}

/**
 * Apollo's multipart HTTP subscription protocol, what Apollo Client's `HttpLink` speaks (and
 * the only client protocol Apollo Router serves): a subscription is an ordinary GraphQL
 * request whose response stays open, one part per event (`{"payload": …}`), a `{}` heartbeat
 * every SUBSCRIPTION_MULTIPART_HEARTBEAT_MS, and an ending that is not a completion sent as
 * `{"payload": null, "errors": […]}` before the close delimiter. Each subscription is a
 * connection (SUBSCRIPTION_MAX_CONNECTIONS) and goes through the gateway as the WebSocket and
 * SSE ones do; a refusal before the stream opens is an HTTP answer with its status.
 */
export function multipartTransport(
  gateway: Pick<MountableGateway, 'subscriptions' | 'clientAddress'>,
): MultipartTransport | undefined {
  const endpoint = gateway.subscriptions;
  if (!endpoint) return undefined;
  const serving: Serving = { gateway, endpoint, open: streamsEndedOnDrain(endpoint) };
  return {
    claim(req, body) {
      return claimSubscription(req, body);
    },
    async serve(req, res, params) {
      return serveClaimed(serving, req, res, params);
    },
  };
}

type Endpoint = NonNullable<MountableGateway['subscriptions']>;

/** What the transport serves with: the gateway's endpoint and the streams open now. */
interface Serving {
  readonly gateway: Pick<MountableGateway, 'subscriptions' | 'clientAddress'>;
  readonly endpoint: Endpoint;
  readonly open: Set<MultipartStream>;
}

/** The streams open now; once draining, those left are ended, then destroyed. */
function streamsEndedOnDrain(endpoint: Endpoint): Set<MultipartStream> {
  const open = new Set<MultipartStream>();
  endpoint.onDrain(() =>
    // Draining completed every subscription: each stream ends by itself, these are the stragglers.
    closeWhenIdle(
      () => open,
      () => false,
      (stream) => stream.end(),
      (stream) => stream.destroy(),
    ),
  );
  return open;
}

/** The request's operation when it is a subscription for this transport (see MultipartTransport.claim). */
function claimSubscription(req: IncomingMessage, body: unknown): StreamParams | undefined {
  if (!wantsMultipartSubscription(req.headers.accept)) return undefined;
  const params =
    req.method === 'POST' ? paramsOf(body) : req.method === 'GET' ? paramsOfUrl(req.url ?? '/') : undefined;
  if (!params) return undefined;
  if (req.method === 'GET' && !isPreflighted(req.headers)) return undefined;
  if (typeof params.query === 'string') {
    return selectedOperationType(params.query, params.operationName) === 'subscription' ? params : undefined;
  }
  // No document, only an id (trusted documents, persisted queries): its type is unknown here.
  // Apollo Client sends this Accept for subscriptions only; a POST may run anything, a GET may not.
  return req.method === 'POST' ? params : undefined;
}

/** A claimed operation: within the connection caps, run by the gateway, its answer or its events written. */
async function serveClaimed(
  { gateway, endpoint, open }: Serving,
  req: IncomingMessage,
  res: ServerResponse,
  params: StreamParams,
): Promise<void> {
  // A connection slot, within the total and this address's share (SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT).
  const slot = endpoint.openConnection(clientAddressOf(gateway, req));
  if (!slot.granted) return answer(req, res, slot.status, { errors: [slot.error] });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    slot.release();
  };
  // A client that leaves frees its connection at once, and its subscription below.
  const gone = new Promise<false>((resolve) =>
    whenClosed(res, () => {
      release();
      resolve(false);
    }),
  );
  try {
    const scope = streamScope(req.method ?? 'POST', req, req.headers, clientAddressOf(gateway, req));
    const outcome = await endpoint.operate(scope, params);
    if (outcome.kind === 'answer') return answer(req, res, outcome.status, outcome.result, scope.requestId);
    // Released already: its client left while the operation was being subscribed.
    if (released) {
      void outcome.events.return?.();
      return;
    }
    await streamEvents(res, outcome.events, scope.requestId, gone, req.headers.accept, { endpoint, open });
  } finally {
    release();
  }
}

/** The subscription's events as a multipart response, until they end, the client leaves or one fails. */
async function streamEvents(
  res: ServerResponse,
  events: AsyncIterableIterator<FormattedExecutionResult>,
  requestId: string,
  gone: Promise<false>,
  accept: string | undefined,
  { endpoint, open }: Pick<Serving, 'endpoint' | 'open'>,
): Promise<void> {
  res.writeHead(200, {
    'content-type': MULTIPART_CONTENT_TYPE,
    'cache-control': 'no-cache',
    // nginx would otherwise hold events back in its buffer.
    'x-accel-buffering': 'no',
    [REQUEST_ID_HEADER]: requestId,
  });
  const stream = new MultipartStream(
    res,
    endpoint.limits.multipartHeartbeatMs,
    !/subscriptionspec/i.test(accept ?? ''),
  );
  open.add(stream);
  try {
    for (;;) {
      const step = await Promise.race([events.next(), gone]);
      if (!step) return;
      if (step.done) return stream.end();
      const event = step.value;
      // The gateway ends a subscription that did not complete (reload, slow consumer, token
      // expired, subgraph gone) with an event of errors and no data: a fatal, transport-level error.
      if (event.data === undefined && event.errors) {
        return stream.end(JSON.stringify({ payload: null, errors: event.errors }));
      }
      if (!(await Promise.race([stream.part(JSON.stringify({ payload: event })), gone]))) return;
    }
  } catch {
    stream.end(
      JSON.stringify({
        payload: null,
        errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
      }),
    );
  } finally {
    open.delete(stream);
    void events.return?.();
  }
}

/** A single JSON answer (a refusal, or a query sent by id): as plain HTTP would type it for this Accept. */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  result: FormattedExecutionResult,
  requestId?: string,
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, {
    'content-type': `${jsonTypeFor(req.headers.accept)}; charset=utf-8`,
    ...(requestId && { [REQUEST_ID_HEADER]: requestId }),
  });
  res.end(JSON.stringify(result));
}

/**
 * `application/graphql-response+json` when the Accept lists it at least as high as
 * `application/json` (Apollo Client does: it then reads a 4xx answer's errors), else JSON.
 */
function jsonTypeFor(accept: string | undefined): string {
  let best = { type: 'application/json', q: -1 };
  for (const range of (accept ?? '').split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'application/json' && type !== 'application/graphql-response+json') continue;
    const q = Number(parameters.find((parameter) => parameter.startsWith('q='))?.slice(2) ?? 1);
    if (q > best.q) best = { type, q };
  }
  return best.q > 0 ? best.type : 'application/json';
}

function paramsOf(body: unknown): StreamParams | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (query !== undefined && typeof query !== 'string') return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  if (!isObjectOrAbsent(variables) || !isObjectOrAbsent(extensions)) return undefined;
  return { query, variables, operationName, extensions } as StreamParams;
}

function paramsOfUrl(url: string): StreamParams | undefined {
  const search = new URL(url, 'http://localhost/').searchParams;
  try {
    const json = (name: string) => {
      const value = search.get(name);
      return value === null ? undefined : (JSON.parse(value) as unknown);
    };
    return paramsOf({
      query: search.get('query') ?? undefined,
      operationName: search.get('operationName') ?? undefined,
      variables: json('variables'),
      extensions: json('extensions'),
    });
  } catch {
    return undefined;
  }
}

function isObjectOrAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value));
}

function isPreflighted(headers: IncomingHttpHeaders): boolean {
  const contentType = headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (contentType && !SIMPLE_CONTENT_TYPES.has(contentType)) return true;
  return PREFLIGHT_HEADERS.some((name) => {
    const value = headers[name];
    return typeof value === 'string' && value.length > 0;
  });
}

/** `then` once the response is closed: at once when its client left already. */
function whenClosed(res: ServerResponse, then: () => void): void {
  if (res.destroyed || res.socket?.destroyed || res.socket === null) then();
  else res.once('close', then);
}
