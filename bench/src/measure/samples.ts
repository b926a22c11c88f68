import type { LatencySummary } from '../run/results.js';

/** Every latency sample of a run, in microseconds: kept whole so percentiles are exact, not bucketed. */
export class Samples {
  #values = new Float64Array(4096);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  push(micros: number): void {
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#count++] = micros;
  }

  /** A sorted copy of the samples. */
  sorted(): Float64Array {
    return this.#values.slice(0, this.#count).sort();
  }
}

/** The value at percentile `p` (0-100) of sorted samples, nearest-rank method (always a measured value). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Mean and exact percentiles, in milliseconds rounded to the microsecond; null without samples. */
export function summarize(samples: Samples): LatencySummary | null {
  const sorted = samples.sorted();
  if (sorted.length === 0) return null;
  let sum = 0;
  for (const value of sorted) sum += value;
  const ms = (micros: number) => Math.round(micros) / 1000;
  return {
    mean: ms(sum / sorted.length),
    p50: ms(percentile(sorted, 50)),
    p90: ms(percentile(sorted, 90)),
    p95: ms(percentile(sorted, 95)),
    p99: ms(percentile(sorted, 99)),
    p999: ms(percentile(sorted, 99.9)),
    max: ms(sorted[sorted.length - 1] as number),
  };
}
