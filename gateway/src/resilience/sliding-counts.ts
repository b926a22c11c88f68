/**
 * Counts of a few kinds of event over the last `windowMs`, kept in `buckets` slices so
 * old events fall out one slice at a time (no per-event timestamps, O(buckets) memory).
 */
interface Slice<K extends string> {
  /** Which slice of time it holds (its index since the epoch). */
  epoch: number;
  counts: Record<K, number>;
}

export class SlidingCounts<K extends string> {
  readonly #keys: readonly K[];
  readonly #sliceMs: number;
  readonly #now: () => number;
  readonly #slices: Slice<K>[];

  constructor(keys: readonly K[], windowMs: number, buckets: number, now: () => number) {
    this.#keys = keys;
    this.#sliceMs = windowMs / buckets;
    this.#now = now;
    this.#slices = Array.from({ length: buckets }, () => ({ epoch: Number.NEGATIVE_INFINITY, counts: this.#zero() }));
  }

  add(key: K, count = 1): void {
    const epoch = Math.floor(this.#now() / this.#sliceMs);
    const slice = this.#slices[epoch % this.#slices.length] as Slice<K>;
    if (slice.epoch !== epoch) {
      slice.epoch = epoch;
      slice.counts = this.#zero();
    }
    slice.counts[key] += count;
  }

  /** Events of this kind in the window (the current slice included). */
  total(key: K): number {
    const oldest = Math.floor(this.#now() / this.#sliceMs) - this.#slices.length;
    let sum = 0;
    for (const slice of this.#slices) if (slice.epoch > oldest) sum += slice.counts[key];
    return sum;
  }

  reset(): void {
    for (const slice of this.#slices) slice.epoch = Number.NEGATIVE_INFINITY;
  }

  #zero(): Record<K, number> {
    return Object.fromEntries(this.#keys.map((key) => [key, 0])) as Record<K, number>;
  }
}
