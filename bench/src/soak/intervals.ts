import { LATE_SEND_MS } from '../load/load-result.js';
import type { OpenLoopAnswer } from '../load/open-loop.js';
import { percentile, Samples } from '../measure/samples.js';
import { errorKinds } from './error-kind.js';
import type { SoakInterval } from './results.js';

/** What is read from the gateway at the end of each interval. */
export type IntervalReadings = Pick<
  SoakInterval,
  'rssMb' | 'cpuShare' | 'lagP99Ms' | 'lagMeanMs' | 'lagMaxMs' | 'heapUsedMb'
>;

interface Bucket {
  sent: number;
  completed: number;
  failed: number;
  late: number;
  samples: Samples;
  errors: Record<string, number>;
}

/**
 * Splits an open-loop run into fixed intervals by each request's intended start (so an answer
 * that arrives later still belongs to the interval that sent it), counting sends, answers,
 * failures by kind and late sends, and keeping each interval's latencies for exact percentiles.
 */
export class IntervalRecorder {
  readonly #intervalNs: bigint;
  readonly #buckets: Bucket[];
  #startNs: bigint | null = null;

  constructor(intervalSec: number, count: number) {
    this.#intervalNs = BigInt(Math.round(intervalSec * 1e9));
    this.#buckets = Array.from({ length: count }, () => ({
      sent: 0,
      completed: 0,
      failed: 0,
      late: 0,
      samples: new Samples(),
      errors: {},
    }));
  }

  /** The first send's intended start is the soak's time zero. */
  onSend = (dueNs: bigint, lagNs: bigint): void => {
    this.#startNs ??= dueNs;
    const bucket = this.#bucket(dueNs);
    bucket.sent++;
    if (lagNs > BigInt(LATE_SEND_MS * 1e6)) bucket.late++;
  };

  onAnswer = (answer: OpenLoopAnswer): void => {
    const bucket = this.#bucket(answer.dueNs);
    bucket.samples.push(answer.latencyUs);
    if (answer.ok) {
      bucket.completed++;
      return;
    }
    bucket.failed++;
    for (const kind of errorKinds(answer)) bucket.errors[kind] = (bucket.errors[kind] ?? 0) + 1;
  };

  /** Running totals so far, for the live line. */
  soFar(): { sent: number; completed: number; failed: number } {
    let sent = 0;
    let completed = 0;
    let failed = 0;
    for (const bucket of this.#buckets) {
      sent += bucket.sent;
      completed += bucket.completed;
      failed += bucket.failed;
    }
    return { sent, completed, failed };
  }

  /** The intervals with their readings (readings[i] taken at the end of interval i). */
  intervals(intervalSec: number, readings: readonly (IntervalReadings | undefined)[]): SoakInterval[] {
    return this.#buckets.map((bucket, i) => {
      const sorted = bucket.samples.sorted();
      const ms = (micros: number) => Math.round(micros) / 1000;
      return {
        atSec: Math.round((i + 1) * intervalSec * 1000) / 1000,
        sent: bucket.sent,
        completed: bucket.completed,
        failed: bucket.failed,
        late: bucket.late,
        latencyMs: sorted.length > 0 ? { p50: ms(percentile(sorted, 50)), p99: ms(percentile(sorted, 99)) } : null,
        errors: bucket.errors,
        ...(readings[i] ?? NO_READINGS),
      };
    });
  }

  #bucket(dueNs: bigint): Bucket {
    const index = Number((dueNs - (this.#startNs ?? dueNs)) / this.#intervalNs);
    return this.#buckets[Math.min(Math.max(0, index), this.#buckets.length - 1)] as Bucket;
  }
}

const NO_READINGS: IntervalReadings = {
  rssMb: null,
  cpuShare: null,
  lagP99Ms: null,
  lagMeanMs: null,
  lagMaxMs: null,
  heapUsedMb: null,
};
