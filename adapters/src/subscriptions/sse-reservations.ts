// graphql-sse's single connection mode: a PUT reserves a stream (authenticated, admitted and
// counted as a connection), one GET opens it, and it expires unopened; the subscriptions running
// on it are counted so that an idle one can be closed.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Clock, MountableGateway, StreamOutcome, SubscriptionEndpoint } from '@fedgw/gateway/contract';
import type { Request as SseRequest } from 'graphql-sse';
import { clientAddressOf } from '../client-address.js';
import { answer, type Context, type Flow } from './sse-streams.js';
import { streamScope } from './stream-scope.js';

/** A single-connection-mode stream: reserved by PUT, then opened by one GET (or POST) with `Accept: text/event-stream`. */
export interface Reservation {
  readonly release: () => void;
  readonly expiry: { cancel(): void };
  flow?: Flow;
  /** Subscriptions running on it. */
  operations: number;
  /** Operations being answered (any kind), so the idle clock waits for them. */
  busy: number;
  idle?: { cancel(): void };
}

/**
 * A reservation still to be opened, or opened and not cut. Its stream is forgotten when the
 * response closes, a turn of the event loop or more after the gateway cut it (idle, or a client
 * too far behind): a request with its token in that instant is answered as after it (404), not
 * with graphql-sse's 409 for a stream still open.
 */
export function isLive(reservation: Reservation | undefined): reservation is Reservation {
  return reservation !== undefined && reservation.flow?.res.destroyed !== true;
}

/** PUT: a reservation for single connection mode, authenticated and counted as a connection until its stream closes. */
export async function reserve(
  req: SseRequest<IncomingMessage, Context>,
  endpoint: SubscriptionEndpoint,
  gateway: Pick<MountableGateway, 'admit' | 'clientAddress'>,
  reservations: Map<string, Reservation>,
  expiry: { ms: number; clock: Clock },
  forget: (token: string) => Promise<void>,
) {
  const raw = req.raw as IncomingMessage;
  const scope = streamScope('PUT', raw, raw.headers, clientAddressOf(gateway, raw));
  // Refused as an HTTP request would be: 401 for a bad credential, 503 when shed, each coded.
  const unauthenticated = await endpoint.authenticate(scope);
  if (unauthenticated) return answer(unauthenticated.status, unauthenticated.result, unauthenticated.headers);
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

/** `events` counted as a subscription running on `reservation`; `onIdle` once it ends. */
export function countedEvents(
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
