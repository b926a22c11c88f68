import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, MountableGateway, StreamOutcome } from '@fedgw/gateway/contract';
import { GraphQLSchema } from 'graphql';
import { createHandler, type Handler, type RequestParams, type Request as SseRequest } from 'graphql-sse';
import { clientAddressOf } from '../client-address.js';
import { realClock } from '../clock.js';
import { closeWhenIdle } from './close-when-idle.js';
import { countedEvents, isLive, type Reservation, reserve } from './sse-reservations.js';
import {
  answer,
  asGenerator,
  type Context,
  type Flow,
  unreadableAsEvents,
  whenClosed,
  writeStream,
} from './sse-streams.js';
import { STAND_IN, streamScope } from './stream-scope.js';

const TOKEN_HEADER = 'x-graphql-event-stream-token';
const NO_SCHEMA = new GraphQLSchema({});

/** What the gateway answered, carried to graphql-sse's execute/subscribe. */
interface Holder {
  [key: PropertyKey]: unknown;
  readonly outcome: StreamOutcome;
}
const EVENT_STREAM_HEADERS = {
  connection: 'keep-alive',
  'cache-control': 'no-cache',
  'content-encoding': 'none',
  'content-type': 'text/event-stream; charset=utf-8',
};

/**
 * Requests of graphql-sse's single connection mode (a reservation, its token) rather than plain
 * GraphQL over HTTP. Its distinct mode is chosen by the Accept header (transport-choice.ts).
 */
export function isSseRequest(method: string, headers: IncomingMessage['headers'], url: string): boolean {
  if (method === 'PUT' || method === 'DELETE') return true;
  return headers[TOKEN_HEADER] !== undefined || /[?&]token=/.test(url);
}

export interface SseHandlerOptions {
  /** The clock of reservations' expiry and of idle streams. Default: the real clock. Tests pass their own to move time. */
  clock?: Clock;
}

/** `body`: the request's body, already read within BODY_LIMIT by the mount (text, or JSON Fastify parsed; '' when none). */
export type SseHandler = (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>;

/**
 * GraphQL over Server-Sent Events (the graphql-sse protocol, both modes) at the gateway's
 * path. Each operation goes through the gateway as a request of its own. graphql-sse queues
 * events for a stream without bound, so each stream counts what it was handed against what it
 * wrote: a client more than SUBSCRIPTION_MAX_BUFFERED_EVENTS behind is disconnected.
 * Single-connection reservations count as connections and expire unopened; an opened one with
 * no operation is closed after SUBSCRIPTION_IDLE_TIMEOUT_MS. Once a stream is accepted, a refused or
 * invalid operation is sent on it as a `next` event with the errors, then `complete`, as the
 * protocol asks (an HTTP error would reach an EventSource, or graphql-sse's client, without
 * its message); only what keeps a stream from opening (connection caps, draining, an unknown
 * token) is an HTTP status.
 */
export function sseHandler(
  gateway: Pick<MountableGateway, 'subscriptions' | 'admit' | 'clientAddress'>,
  options: SseHandlerOptions = {},
): SseHandler | undefined {
  const clock = options.clock ?? realClock;
  const endpoint = gateway.subscriptions;
  if (!endpoint) return undefined;
  const { limits } = endpoint;
  const reservations = new Map<string, Reservation>();
  // Open event streams, each with whether it has no operation left (a distinct stream ends by itself).
  const open = new Map<ServerResponse, () => boolean>();
  endpoint.onDrain(() =>
    closeWhenIdle(
      () => [...open.keys()],
      (res) => open.get(res)?.() ?? true,
      (res) => res.end(),
      (res) => res.destroy(),
    ),
  );

  /**
   * An opened single-connection stream with nothing running is closed after
   * SUBSCRIPTION_IDLE_TIMEOUT_MS, as an idle WebSocket is. Cut, not ended: graphql-sse's client
   * forgets a connection only when its stream fails; one that ends cleanly it would keep
   * using, its token unknown, for every later operation.
   */
  const restIdle = (reservation: Reservation): void => {
    reservation.idle?.cancel();
    const res = reservation.flow?.res;
    if (!res || reservation.operations > 0 || reservation.busy > 0) return;
    reservation.idle = clock.after(limits.idleTimeoutMs, () => res.destroy());
  };

  const state: SseState = { gateway, endpoint, limits, clock, reservations, open, restIdle };
  const handler: SseProtocol = protocolHandler(state, (token) => forget(handler, token));
  return (req, res, body) => serveSse(state, handler, req, res, body);
}

type Endpoint = NonNullable<MountableGateway['subscriptions']>;
type SseProtocol = Handler<IncomingMessage, Context>;

/** What the handler's steps share: the gateway, its endpoint, the reservations and the open streams. */
interface SseState {
  readonly gateway: Pick<MountableGateway, 'admit' | 'clientAddress'>;
  readonly endpoint: Endpoint;
  readonly limits: Endpoint['limits'];
  /** The clock of reservations' expiry and of idle streams. */
  readonly clock: Clock;
  readonly reservations: Map<string, Reservation>;
  readonly open: Map<ServerResponse, () => boolean>;
  readonly restIdle: (reservation: Reservation) => void;
}

/** graphql-sse's handler, its operations answered by the gateway. */
function protocolHandler(state: SseState, forget: (token: string) => Promise<void>): SseProtocol {
  const { gateway, endpoint, limits, clock, reservations } = state;
  const maxBehind = limits.maxBufferedEvents;
  return createHandler<IncomingMessage, Context, Holder>({
    // The gateway parsed and validated the operation already; the stand-in document needs no check.
    validate: () => [],
    authenticate: async (req) => {
      const token = tokenOf(req);
      if (req.method === 'PUT')
        return reserve(req, endpoint, gateway, reservations, { ms: limits.connectionInitTimeoutMs, clock }, forget);
      if (token && !isLive(reservations.get(token))) return [null, { status: 404, statusText: 'Not Found' }];
      return token ?? null;
    },
    // Reached only for an accepted stream (a distinct one, or a known token's): any refusal is
    // an answer like a query's, so graphql-sse sends it as `next` then `complete`.
    onSubscribe: (req, params) => subscribeOperation(state, req, params),
    execute: (args) => (args.contextValue.outcome as Extract<StreamOutcome, { kind: 'answer' }>).result as never,
    subscribe: (args) =>
      asGenerator((args.contextValue.outcome as Extract<StreamOutcome, { kind: 'stream' }>).events) as never,
    onNext: (_ctx, req) => {
      const token = tokenOf(req);
      const flow = token ? reservations.get(token)?.flow : req.context.flow;
      if (!flow) return;
      flow.produced += 1;
      if (flow.produced - flow.written > maxBehind) flow.res.destroy();
    },
  });
}

/** graphql-sse's `onSubscribe`: the operation run by the gateway (within SUBSCRIPTION_MAX_PER_CONNECTION on a reserved stream). */
async function subscribeOperation(
  state: SseState,
  req: SseRequest<IncomingMessage, Context>,
  params: RequestParams,
): Promise<ReturnType<typeof answerArgs>> {
  const { gateway, endpoint, limits, reservations, restIdle } = state;
  const token = tokenOf(req);
  const reservation = token ? reservations.get(token) : undefined;
  if (reservation && reservation.operations >= limits.maxPerConnection) {
    return answerArgs({
      kind: 'answer',
      status: 429,
      result: {
        errors: [
          {
            message: `A stream may run ${limits.maxPerConnection} operations at once (SUBSCRIPTION_MAX_PER_CONNECTION).`,
            extensions: { code: 'SUBSCRIPTION_MAX_LIMIT', legacyCode: 'SUBSCRIPTION_LIMIT_EXCEEDED' },
          },
        ],
      },
    });
  }
  const raw = req.raw as IncomingMessage;
  const scope = streamScope(raw.method ?? 'POST', raw, raw.headers, clientAddressOf(gateway, raw));
  if (reservation) {
    reservation.busy += 1;
    reservation.idle?.cancel();
  }
  try {
    const outcome = await endpoint.operate(scope, {
      query: typeof params.query === 'string' ? params.query : undefined,
      variables: params.variables ?? null,
      operationName: params.operationName ?? null,
      extensions: params.extensions ?? null,
    });
    return answerArgs(
      reservation && outcome.kind === 'stream' ? countedEvents(outcome.events, reservation, restIdle) : outcome,
    );
  } finally {
    if (reservation) {
      reservation.busy -= 1;
      restIdle(reservation);
    }
  }
}

/**
 * graphql-sse keeps a reserved stream until its connection closes, so one never opened would
 * stay in its memory for good (a client reserving in a loop would grow it without bound):
 * an expired reservation is opened and closed here, which makes graphql-sse forget it.
 */
async function forget(handler: SseProtocol, token: string): Promise<void> {
  const headers: Record<string, string> = { accept: 'text/event-stream', [TOKEN_HEADER]: token };
  const [stream] = await handler({
    method: 'GET',
    url: '/',
    headers: { get: (name) => headers[name.toLowerCase()] ?? null },
    body: '',
    raw: undefined as unknown as IncomingMessage,
    context: undefined as unknown as Context,
  });
  if (stream && typeof stream !== 'string') await stream.return?.(undefined);
}

/** One HTTP request of the protocol: a distinct stream's connection slot, a reservation opened, the answer or the stream written. */
async function serveSse(
  state: SseState,
  handler: SseProtocol,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const { gateway, endpoint, reservations, open, restIdle } = state;
  const flow: Flow = { produced: 0, written: 0, res };
  const token = tokenOf({ headers: { get: (name: string) => headerOf(req, name) }, url: req.url ?? '' } as never);
  const reservation = token ? reservations.get(token) : undefined;
  const opensStream = req.headers.accept?.includes('text/event-stream');
  // Only the first GET opens a reservation's stream. A later one (graphql-sse answers 409 while
  // the stream is open, 404 once it is cut) must not take over the stream's flow: its response
  // is not the stream, and the cut one's would look live again.
  const opensReserved = reservation !== undefined && opensStream === true && reservation.flow === undefined;
  if (opensReserved) {
    reservation.expiry.cancel();
    reservation.flow = flow;
  }
  // A distinct-mode stream is a connection of its own (SUBSCRIPTION_MAX_CONNECTIONS, _PER_CLIENT), as a WebSocket is.
  const distinct = opensStream && !token;
  const slot = distinct ? endpoint.openConnection(clientAddressOf(gateway, req)) : undefined;
  if (slot && !slot.granted) {
    const [text, refusal] = answer(slot.status, { errors: [slot.error] });
    res.writeHead(refusal.status, refusal.headers).end(text);
    return;
  }
  const releaseDistinct = slot?.release;
  whenClosed(res, () => releaseDistinct?.());
  const [responseBody, init] = await handler({
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: { get: (name) => headerOf(req, name) },
    body: (body ?? '') as string,
    raw: req,
    context: { res, flow },
  });
  if (distinct && init.status === 400 && typeof responseBody === 'string') {
    // graphql-sse could not read the request (no query, bad JSON): an invalid operation on an accepted stream too.
    releaseDistinct?.();
    res.writeHead(200, EVENT_STREAM_HEADERS).end(unreadableAsEvents(responseBody));
    return;
  }
  res.writeHead(init.status, init.statusText, init.headers as Record<string, string>);
  if (!responseBody || typeof responseBody === 'string') {
    releaseDistinct?.();
    res.end(responseBody);
    return;
  }
  open.set(res, opensReserved ? () => reservation.operations === 0 : () => false);
  if (opensReserved) restIdle(reservation);
  whenClosed(res, () => {
    open.delete(res);
    void responseBody.return?.(undefined);
    if (token && opensReserved) {
      reservation.idle?.cancel();
      reservations.delete(token);
      reservation.release();
    }
  });
  await writeStream(res, responseBody, flow);
}

/** What graphql-sse runs for an operation: the gateway's outcome, behind a stand-in document of its type. */
function answerArgs(outcome: StreamOutcome) {
  return {
    schema: NO_SCHEMA,
    document: outcome.kind === 'stream' ? STAND_IN.stream : STAND_IN.answer,
    contextValue: { outcome },
  };
}

function tokenOf(req: { headers: { get(name: string): string | null | undefined }; url: string }): string | undefined {
  const header = req.headers.get(TOKEN_HEADER);
  if (header) return header;
  return new URL(req.url, 'http://localhost/').searchParams.get('token') ?? undefined;
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join('\n') : (value ?? null);
}
