import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, MountableGateway, StreamOutcome, SubscriptionEndpoint } from '@fedgw/gateway/contract';
import { GraphQLSchema } from 'graphql';
import { createHandler, type Request as SseRequest } from 'graphql-sse';
import { clientAddressOf } from '../client-address.js';
import { realClock } from '../clock.js';
import { closeWhenIdle } from './close-when-idle.js';
import { STAND_IN, streamScope } from './stream-scope.js';

const TOKEN_HEADER = 'x-graphql-event-stream-token';
const NO_SCHEMA = new GraphQLSchema({});

/** Per response: events handed to graphql-sse and events written, to notice a client that stopped reading. */
interface Flow {
  produced: number;
  written: number;
  readonly res: ServerResponse;
}
interface Context {
  readonly res: ServerResponse;
  readonly flow: Flow;
}
/** What the gateway answered, carried to graphql-sse's execute/subscribe. */
interface Holder {
  [key: PropertyKey]: unknown;
  readonly outcome: StreamOutcome;
}
/** A single-connection-mode stream: reserved by PUT, then opened by one GET (or POST) with `Accept: text/event-stream`. */
interface Reservation {
  readonly release: () => void;
  readonly expiry: { cancel(): void };
  flow?: Flow;
  /** Subscriptions running on it. */
  operations: number;
  /** Operations being answered (any kind), so the idle clock waits for them. */
  busy: number;
  idle?: { cancel(): void };
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
  const maxBehind = limits.maxBufferedEvents;
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

  const handler = createHandler<IncomingMessage, Context, Holder>({
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
    onSubscribe: async (req, params) => {
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
    },
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

  /**
   * graphql-sse keeps a reserved stream until its connection closes, so one never opened would
   * stay in its memory for good (a client reserving in a loop would grow it without bound):
   * an expired reservation is opened and closed here, which makes graphql-sse forget it.
   */
  const forget = async (token: string): Promise<void> => {
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
  };

  return async (req, res, body) => {
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
  };
}

/**
 * A reservation still to be opened, or opened and not cut. Its stream is forgotten when the
 * response closes, a turn of the event loop or more after the gateway cut it (idle, or a client
 * too far behind): a request with its token in that instant is answered as after it (404), not
 * with graphql-sse's 409 for a stream still open.
 */
function isLive(reservation: Reservation | undefined): reservation is Reservation {
  return reservation !== undefined && reservation.flow?.res.destroyed !== true;
}

/** `then` once the response is closed: at once when its client left while graphql-sse was still answering. */
function whenClosed(res: ServerResponse, then: () => void): void {
  if (res.destroyed || res.socket?.destroyed || res.socket === null) then();
  else res.once('close', then);
}

/**
 * Writes graphql-sse's messages until the stream ends or the client leaves. Every wait races
 * the response's `close`: a client gone mid-wait must not leave the request open (a drain waits
 * for it), and a response stays `writable` after its client left.
 */
async function writeStream(res: ServerResponse, messages: AsyncIterable<string>, flow: Flow): Promise<void> {
  const gone = new Promise<undefined>((resolve) => whenClosed(res, () => resolve(undefined)));
  const iterator = messages[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), gone]);
      if (!step || step.done) return;
      const written = await Promise.race([
        new Promise<boolean>((resolve) => res.write(step.value, (error) => resolve(!error))),
        gone,
      ]);
      if (!written) return;
      if (step.value.startsWith('event: next')) flow.written += 1;
    }
  } finally {
    void iterator.return?.();
    res.end();
  }
}

/** PUT: a reservation for single connection mode, authenticated and counted as a connection until its stream closes. */
async function reserve(
  req: SseRequest<IncomingMessage, Context>,
  endpoint: SubscriptionEndpoint,
  gateway: Pick<MountableGateway, 'admit' | 'clientAddress'>,
  reservations: Map<string, Reservation>,
  expiry: { ms: number; clock: Clock },
  forget: (token: string) => Promise<void>,
) {
  const raw = req.raw as IncomingMessage;
  const scope = streamScope('PUT', raw, raw.headers, clientAddressOf(gateway, raw));
  try {
    await endpoint.authenticate(scope);
  } catch {
    return answer(401, { errors: [{ message: 'Unauthenticated', extensions: { code: 'UNAUTHENTICATED' } }] });
  }
  // Charged like any request (rate limit), by the identity it was authenticated with.
  const refusal = await gateway.admit?.(scope);
  if (refusal)
    return [refusal.body, { status: refusal.status, statusText: '', headers: { ...refusal.headers } }] as const;
  const slot = endpoint.openConnection(clientAddressOf(gateway, raw));
  if (!slot.granted) return answer(slot.status, { errors: [slot.error] });
  const { release } = slot;
  const token = randomUUID();
  // Not opened in time: forget it, so reservations nobody uses cannot pile up.
  const expires = expiry.clock.after(expiry.ms, () => {
    const reservation = reservations.get(token);
    if (!reservation || reservation.flow) return;
    // graphql-sse forgets it while it is still ours (that GET is authenticated as a known token);
    // no I/O in between, so no client's request can come in before it is deleted.
    const forgotten = forget(token).finally(() => reservations.delete(token));
    release();
    return forgotten;
  });
  reservations.set(token, { release, expiry: expires, operations: 0, busy: 0 });
  return token;
}

/** What graphql-sse runs for an operation: the gateway's outcome, behind a stand-in document of its type. */
function answerArgs(outcome: StreamOutcome) {
  return {
    schema: NO_SCHEMA,
    document: outcome.kind === 'stream' ? STAND_IN.stream : STAND_IN.answer,
    contextValue: { outcome },
  };
}

function countedEvents(
  events: AsyncIterableIterator<unknown>,
  reservation: Reservation,
  onIdle: (reservation: Reservation) => void,
): StreamOutcome {
  reservation.operations += 1;
  let done = false;
  const finish = () => {
    if (!done) {
      done = true;
      reservation.operations -= 1;
      onIdle(reservation);
    }
  };
  const counted: AsyncIterableIterator<unknown> = {
    next: async () => {
      const step = await events.next();
      if (step.done) finish();
      return step;
    },
    return: async () => {
      finish();
      return (await events.return?.()) ?? { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => counted,
  };
  return { kind: 'stream', events: counted as never };
}

/**
 * graphql-sse stops an operation (its stream closed, or a DELETE) only when it is an async
 * generator: with `throw` as well as `return`. Any other iterator was never returned, so a client
 * that left kept its subscription, its subgraph socket and its SUBSCRIPTION_MAX_PER_CLIENT slot.
 */
function asGenerator(events: AsyncIterableIterator<unknown>): AsyncIterableIterator<unknown> {
  const generator = {
    next: () => events.next(),
    return: async (value?: unknown) => (await events.return?.(value)) ?? { done: true as const, value },
    throw: async (error: unknown) => {
      await events.return?.();
      throw error;
    },
    [Symbol.asyncIterator]: () => generator,
  };
  return generator;
}

/** graphql-sse's 400 for a request it could not read, as the `next` and `complete` events of a distinct stream; coded. */
function unreadableAsEvents(body: string): string {
  let errors: unknown;
  try {
    errors = (JSON.parse(body) as { errors?: unknown }).errors;
  } catch {
    errors = undefined;
  }
  const messages = Array.isArray(errors) ? errors.map((error) => String((error as { message?: unknown }).message)) : [];
  const result = {
    errors: (messages.length > 0 ? messages : ['The request could not be read.']).map((message) => ({
      message,
      extensions: { code: 'BAD_REQUEST' },
    })),
  };
  return `event: next\ndata: ${JSON.stringify(result)}\n\nevent: complete\ndata: \n\n`;
}

function answer(
  status: number,
  result: unknown,
): [string, { status: number; statusText: string; headers: Record<string, string> }] {
  return [
    JSON.stringify(result),
    { status, statusText: '', headers: { 'content-type': 'application/json; charset=utf-8' } },
  ];
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
