/**
 * An async queue with a cap: a producer that outruns its consumer (a subgraph sending events
 * faster than one client reads them) fails the queue, or with `dropOldest` drops its oldest
 * item, instead of growing it, so one slow client costs the gateway at most `capacity` events
 * of memory. Single consumer.
 */
export class BoundedQueue<T> implements AsyncIterableIterator<T> {
  readonly #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #ended = false;
  #failure: { error: unknown } | undefined;
  readonly #capacity: number;
  readonly #onClose: () => void;
  readonly #dropOldest: boolean;
  #dropped = 0;

  /** `onClose` runs once, when the consumer stops or the queue ends or fails. */
  constructor(capacity: number, onClose: () => void, options: { dropOldest?: boolean } = {}) {
    this.#capacity = capacity;
    this.#onClose = onClose;
    this.#dropOldest = options.dropOldest ?? false;
  }

  /** Items dropped to make room (`dropOldest`). */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * False when the queue was full and is failed with `overflow()`'s error; with `dropOldest`
   * a full queue drops its oldest item instead, and this is true.
   */
  push(item: T, overflow: () => unknown): boolean {
    if (this.#ended) return true;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#clearWaiting();
      resolve({ value: item, done: false });
      return true;
    }
    if (this.#items.length >= this.#capacity && this.#dropOldest) {
      this.#items.shift();
      this.#dropped += 1;
    } else if (this.#items.length >= this.#capacity) {
      this.fail(overflow());
      return false;
    }
    this.#items.push(item);
    return true;
  }

  /** Ends the queue after the items already in it. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#onClose();
    if (this.#waiting && this.#items.length === 0) {
      const resolve = this.#waiting;
      this.#clearWaiting();
      resolve({ value: undefined, done: true });
    }
  }

  /** Fails the queue after the items already in it: the consumer's next read throws `error`. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = { error };
    this.#ended = true;
    this.#onClose();
    if (this.#failWaiting && this.#items.length === 0) {
      const reject = this.#failWaiting;
      this.#clearWaiting();
      this.#failure = undefined;
      reject(error);
    }
  }

  get size(): number {
    return this.#items.length;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift() as T, done: false });
    if (this.#failure) {
      const { error } = this.#failure;
      this.#failure = undefined;
      return Promise.reject(error);
    }
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }

  /** The consumer stopped (a client unsubscribed): drop what is queued. */
  return(): Promise<IteratorResult<T>> {
    this.#items.length = 0;
    this.#failure = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #clearWaiting(): void {
    this.#waiting = undefined;
    this.#failWaiting = undefined;
  }
}
