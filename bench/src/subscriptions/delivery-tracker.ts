import { Samples, summarize } from '../measure/samples.js';
import type { LatencySummary } from '../run/results.js';

/** What a tracker counted over the events whose mutation was answered. */
export interface DeliverySummary {
  /** Events sent (mutations answered with an id). */
  readonly events: number;
  /** events × subscribers: every subscriber should receive every event once. */
  readonly expected: number;
  /** Deliveries of those events; at most `expected` are timed, a duplicate is counted apart. */
  readonly delivered: number;
  readonly missing: number;
  readonly duplicates: number;
  /**
   * Deliveries that reached the client before the mutation's answer did (timed as 0 ms): the
   * subgraph publishes before it answers, so a fast enough gateway can win the race.
   */
  readonly beforeAnswer: number;
  /** From the mutation's answer to the event's arrival, every delivery; null when none arrived. */
  readonly latencyMs: LatencySummary | null;
}

/**
 * Matches each event the subscribers receive (by the review id it carries) to the moment the
 * answer of the mutation that caused it arrived. Arrivals may come first (the id is only known
 * from the answer), so both sides are kept until `summary()`. Times are milliseconds on one
 * clock (`performance.now()` of this process). Arrivals of ids never answered here (a warm-up's
 * late events) are ignored.
 */
export class DeliveryTracker {
  readonly #subscribers: number;
  readonly #arrivals = new Map<string, number[]>();
  readonly #answers = new Map<string, number>();
  readonly #waiters = new Map<string, () => void>();

  constructor(subscribers: number) {
    if (!Number.isInteger(subscribers) || subscribers < 1) {
      throw new RangeError(`DeliveryTracker: subscribers must be an integer >= 1, got ${subscribers}`);
    }
    this.#subscribers = subscribers;
  }

  /** The mutation that published event `id` was answered at `atMs`. */
  answered(id: string, atMs: number): void {
    this.#answers.set(id, atMs);
  }

  /** One subscriber received event `id` at `atMs`. */
  arrived(id: string, atMs: number): void {
    const times = this.#arrivals.get(id);
    if (times) times.push(atMs);
    else this.#arrivals.set(id, [atMs]);
    if ((times?.length ?? 1) >= this.#subscribers) {
      this.#waiters.get(id)?.();
      this.#waiters.delete(id);
    }
  }

  /** Resolves true once every subscriber has event `id`, false after `timeoutMs` without. */
  complete(id: string, timeoutMs: number): Promise<boolean> {
    if ((this.#arrivals.get(id)?.length ?? 0) >= this.#subscribers) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(id);
        resolve(false);
      }, timeoutMs);
      this.#waiters.set(id, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Latency over every delivery of every answered event; missing ones are counted, not timed. */
  summary(): DeliverySummary {
    const samples = new Samples();
    let delivered = 0;
    let duplicates = 0;
    let beforeAnswer = 0;
    for (const [id, answeredAt] of this.#answers) {
      const times = this.#arrivals.get(id) ?? [];
      const timed = Math.min(times.length, this.#subscribers);
      duplicates += times.length - timed;
      delivered += timed;
      for (const at of times.slice(0, timed)) {
        const latency = at - answeredAt;
        if (latency < 0) beforeAnswer++;
        samples.push(Math.max(0, latency) * 1000);
      }
    }
    const expected = this.#answers.size * this.#subscribers;
    return {
      events: this.#answers.size,
      expected,
      delivered,
      missing: expected - delivered,
      duplicates,
      beforeAnswer,
      latencyMs: summarize(samples),
    };
  }
}
