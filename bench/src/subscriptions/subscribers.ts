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
  const seen = new Uint8Array(count);
  const problems: Record<string, number> = {};
  const problem = (message: string) => {
    problems[message] = (problems[message] ?? 0) + 1;
  };
  let live = 0;
  let wrongEvents = 0;
  let sink: EventSink = () => {};

  const subscribe = (index: number): Promise<void> =>
    new Promise((resolve, reject) => {
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
          next: (result) => {
            const at = performance.now();
            const review = (result as ReviewEvent).data?.reviewAdded;
            if (typeof review?.id !== 'string' || result.errors) {
              wrongEvents++;
              if (result.errors) problem(`event with errors: ${JSON.stringify(result.errors).slice(0, 200)}`);
              return;
            }
            if (typeof review.author?.name !== 'string' || typeof review.product?.name !== 'string') wrongEvents++;
            if (seen[index] === 0) {
              seen[index] = 1;
              live++;
            }
            sink(index, review.id, at);
          },
          error: (error) => problem(`error: ${describe(error)}`),
          complete: () => problem('completed by the server'),
        },
      );
    });

  try {
    for (let first = 0; first < count; first += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - first) }, (_, i) => subscribe(first + i));
      await Promise.all(batch);
    }
  } catch (error) {
    await Promise.all(clients.map((client) => client.dispose()));
    throw error;
  }

  return {
    size: count,
    get live() {
      return live;
    },
    get wrongEvents() {
      return wrongEvents;
    },
    problems: () => ({ ...problems }),
    setSink(next) {
      sink = next;
    },
    async close() {
      sink = () => {};
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
