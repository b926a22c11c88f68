/**
 * In-memory publish/subscribe for one subgraph process's subscriptions: `publish` hands an
 * event to every subscriber whose filter accepts it; each subscriber reads its events, in
 * order, from an async iterator (what a `subscribe` resolver returns).
 *
 * Each subscriber has its own queue, bounded. The reader is graphql-ws writing to a
 * WebSocket: when the gateway reads slowly, the socket's writes wait and the queue grows.
 * Unbounded, one stalled gateway connection would make this process buffer every later event
 * for it until memory runs out. So a subscriber whose queue passes `maxQueued` is dropped at
 * once: its queue is freed and its next read throws `SubscriberOverflowError` (graphql-ws then
 * sends that subscription an error and completes it; the connection and other subscribers go
 * on). Dropping the oldest events instead would keep the stream alive but silently lose
 * events; a client that sees an error knows to resubscribe and catch up.
 */

/** Default per-subscriber cap: far above a healthy reader's backlog, small in memory. */
export const DEFAULT_MAX_QUEUED = 1_000;

export interface PubSubOptions {
  /** Events one subscriber may have waiting before it is dropped. Default: 1,000. */
  maxQueued?: number;
}

/** An async iterator that also stops on `return()` (graphql-ws calls it on complete/close). */
export interface EventStream<T> extends AsyncIterableIterator<T, undefined> {
  return(): Promise<IteratorResult<T, undefined>>;
}

export class SubscriberOverflowError extends Error {
  readonly code = 'SUBSCRIBER_TOO_SLOW';

  constructor(maxQueued: number) {
    super(`subscription dropped: more than ${maxQueued} events waited to be read`);
    this.name = 'SubscriberOverflowError';
  }
}

type Deliver<T> = (event: T) => void;

export class PubSub<T> {
  readonly #subscribers = new Set<Deliver<T>>();
  readonly #maxQueued: number;

  constructor(options: PubSubOptions = {}) {
    const { maxQueued = DEFAULT_MAX_QUEUED } = options;
    if (!Number.isInteger(maxQueued) || maxQueued < 1) {
      throw new RangeError(`PubSub: maxQueued must be an integer >= 1, got ${maxQueued}`);
    }
    this.#maxQueued = maxQueued;
  }

  /** Subscribers still listening (ended, returned and dropped ones are not counted). */
  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  publish(event: T): void {
    for (const deliver of this.#subscribers) deliver(event);
  }

  /** Events published from now on that `accept` takes (all of them without it). */
  subscribe(accept: (event: T) => boolean = () => true): EventStream<T> {
    const queue: T[] = [];
    let waiting: ((result: IteratorResult<T, undefined>) => void) | null = null;
    let failure: Error | null = null;
    let ended = false;
    const DONE: IteratorResult<T, undefined> = { done: true, value: undefined };

    const end = () => {
      ended = true;
      queue.length = 0;
      this.#subscribers.delete(deliver);
      waiting?.(DONE);
      waiting = null;
    };
    const deliver: Deliver<T> = (event) => {
      if (!accept(event)) return;
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ done: false, value: event });
        return;
      }
      queue.push(event);
      if (queue.length > this.#maxQueued) {
        end();
        failure = new SubscriberOverflowError(this.#maxQueued);
      }
    };
    this.#subscribers.add(deliver);

    const stream: EventStream<T> = {
      next: () => {
        if (queue.length > 0) return Promise.resolve({ done: false, value: queue.shift() as T });
        if (failure) {
          const error = failure;
          failure = null;
          return Promise.reject(error);
        }
        if (ended) return Promise.resolve(DONE);
        return new Promise((resolve) => {
          waiting = resolve;
        });
      },
      return: () => {
        end();
        failure = null;
        return Promise.resolve(DONE);
      },
      throw: (error: unknown) => {
        end();
        failure = null;
        return Promise.reject(error);
      },
      [Symbol.asyncIterator]: () => stream,
    };
    return stream;
  }
}
