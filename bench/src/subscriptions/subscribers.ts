import { performance } from 'node:perf_hooks';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** Where each received event goes: which subscriber, the review id it carries, when (performance.now()). */
export type EventSink = (subscriber: number, id: string, atMs: number) => void;

export interface SubscriberPool {
  readonly size: number;
  /** Subscribers that have received at least one event. */
  readonly live: number;
  /** Events received since the pool opened that did not carry a whole federated review. */
  readonly wrongEvents: number;
  /** Errors, refusals and early completions, by message; empty while all is well. */
  problems(): Readonly<Record<string, number>>;
  /** Sends every later event to `sink`. */
  setSink(sink: EventSink): void;
  /** Completes every subscription and closes every socket. */
  close(): Promise<void>;
}

/** Sockets opened at once while connecting: a burst of 1,000 handshakes would only measure the accept queue. */
const CONNECT_BATCH = 100;
const CONNECT_TIMEOUT_MS = 15_000;

interface ReviewEvent {
  readonly data?: {
    readonly reviewAdded?: {
      readonly id?: unknown;
      readonly author?: { readonly name?: unknown } | null;
      readonly product?: { readonly name?: unknown } | null;
    } | null;
  } | null;
  readonly errors?: readonly unknown[];
}

/**
 * Opens `count` WebSockets to `url` (graphql-ws, subprotocol graphql-transport-ws), one
 * subscription each: `count` separate clients, as `count` browsers would be. Resolves once
 * every socket is acknowledged (connection_ack) and its subscription sent; a subscription is
 * only known to be live once its first event arrives (`live`).
 */
export async function openSubscribers(url: string, count: number, document: string): Promise<SubscriberPool> {
  const clients: Client[] = [];
  const tally: Tally = { seen: new Uint8Array(count), problems: {}, live: 0, wrongEvents: 0, sink: () => {} };
  await connectInBatches(count, clients, (index) => subscribe(url, document, index, clients, tally));
  return poolOf(count, clients, tally);
}

/** What the subscribers have received so far, and where each good event goes. */
interface Tally {
  readonly seen: Uint8Array;
  readonly problems: Record<string, number>;
  live: number;
  wrongEvents: number;
  sink: EventSink;
}

function problem(tally: Tally, message: string): void {
  tally.problems[message] = (tally.problems[message] ?? 0) + 1;
}

/** Subscribers connected CONNECT_BATCH at a time; on a failure, every client is disposed of. */
async function connectInBatches(
  count: number,
  clients: Client[],
  subscribeOne: (index: number) => Promise<void>,
): Promise<void> {
  try {
    for (let first = 0; first < count; first += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - first) }, (_, i) => subscribeOne(first + i));
      await Promise.all(batch);
    }
  } catch (error) {
    await Promise.all(clients.map((client) => client.dispose()));
    throw error;
  }
}

/** One subscriber: its client connected (resolved at connection_ack) and its subscription counted into `tally`. */
function subscribe(url: string, document: string, index: number, clients: Client[], tally: Tally): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`subscriber ${index}: no connection_ack within ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    );
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 0,
      on: {
        connected: () => {
          clearTimeout(timer);
          resolve();
        },
        closed: (event) => {
          clearTimeout(timer);
          reject(new Error(`subscriber ${index}: socket closed before connection_ack (${closeReason(event)})`));
        },
      },
    });
    clients.push(client);
    client.subscribe<ReviewEvent['data']>(
      { query: document },
      {
        next: (result) => countEvent(tally, index, result as ReviewEvent),
        error: (error) => problem(tally, `error: ${describe(error)}`),
        complete: () => problem(tally, 'completed by the server'),
      },
    );
  });
}

/** An event: a wrong one counted (its errors as a problem), a good one marks its subscriber live and goes to the sink. */
function countEvent(tally: Tally, index: number, result: ReviewEvent): void {
  const at = performance.now();
  const review = result.data?.reviewAdded;
  if (typeof review?.id !== 'string' || result.errors) {
    tally.wrongEvents++;
    if (result.errors) problem(tally, `event with errors: ${JSON.stringify(result.errors).slice(0, 200)}`);
    return;
  }
  if (typeof review.author?.name !== 'string' || typeof review.product?.name !== 'string') tally.wrongEvents++;
  if (tally.seen[index] === 0) {
    tally.seen[index] = 1;
    tally.live++;
  }
  tally.sink(index, review.id, at);
}

function poolOf(count: number, clients: Client[], tally: Tally): SubscriberPool {
  return {
    size: count,
    get live() {
      return tally.live;
    },
    get wrongEvents() {
      return tally.wrongEvents;
    },
    problems: () => ({ ...tally.problems }),
    setSink(next) {
      tally.sink = next;
    },
    async close() {
      tally.sink = () => {};
      await Promise.all(clients.map((client) => client.dispose()));
    },
  };
}

function describe(error: unknown): string {
  if (Array.isArray(error)) return JSON.stringify(error).slice(0, 200);
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'code' in error) return closeReason(error);
  return String(error).slice(0, 200);
}

function closeReason(event: unknown): string {
  const { code, reason } = (event ?? {}) as { code?: number; reason?: string };
  return `close ${code ?? '?'}${reason ? ` ${reason}` : ''}`;
}
