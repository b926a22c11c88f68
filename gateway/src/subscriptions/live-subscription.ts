import type { FormattedExecutionResult } from 'graphql';
import type { SubgraphEvent } from './subgraph-socket.js';
import { SubscriptionEnd } from './subscription-end.js';

/** Turns one subgraph event into the client's event: the rest of the plan, shaped, errors formatted. */
export type ResolveEvent = (event: SubgraphEvent) => Promise<FormattedExecutionResult>;

/**
 * One client subscription: subgraph events in, the client's events out, one at a time, in the
 * order the subgraph sent them (an event's own fetches finish before the next one starts).
 * Ends when the subgraph completes, when the client leaves, or when `end()` is called (drain:
 * a clean completion; reload: with an error event first).
 */
export class LiveSubscription {
  readonly #source: AsyncIterableIterator<SubgraphEvent>;
  readonly #resolve: ResolveEvent;
  readonly #onEnd: () => void;
  #ending: SubscriptionEnd | null | undefined;
  #ended = false;

  constructor(source: AsyncIterableIterator<SubgraphEvent>, resolve: ResolveEvent, onEnd: () => void) {
    this.#source = source;
    this.#resolve = resolve;
    this.#onEnd = onEnd;
  }

  /** Stops the subscription: its stream ends after the event being resolved, with `reason`'s errors if given. */
  end(reason?: SubscriptionEnd): void {
    if (this.#ending !== undefined) return;
    this.#ending = reason ?? null;
    void this.#source.return?.();
  }

  /**
   * The client's events. Returning the iterator (the client left) releases the subgraph socket
   * and the client's slot even before the first read, which a bare generator would not do.
   */
  events(): AsyncIterableIterator<FormattedExecutionResult> {
    const run = this.#run();
    const stream: AsyncIterableIterator<FormattedExecutionResult> = {
      next: () => run.next(),
      return: async () => {
        this.#ending ??= null;
        this.#release();
        return run.return(undefined);
      },
      [Symbol.asyncIterator]: () => stream,
    };
    return stream;
  }

  async *#run(): AsyncGenerator<FormattedExecutionResult, undefined> {
    try {
      while (true) {
        let step: IteratorResult<SubgraphEvent>;
        try {
          step = await this.#source.next();
        } catch (error) {
          if (this.#ending === undefined && error instanceof SubscriptionEnd) yield { errors: error.errors };
          else if (this.#ending === undefined) throw error;
          break;
        }
        if (step.done) break;
        yield await this.#resolve(step.value);
        if (this.#ending !== undefined) break;
      }
      if (this.#ending) yield { errors: this.#ending.errors };
    } finally {
      this.#ending ??= null;
      this.#release();
    }
    return undefined;
  }

  #release(): void {
    if (this.#ended) return;
    this.#ended = true;
    void this.#source.return?.();
    this.#onEnd();
  }
}
