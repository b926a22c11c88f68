import { Worker } from 'node:worker_threads';

export interface ClockOptions {
  /** process.hrtime.bigint() of send 0. */
  readonly startNs: bigint;
  /** Nanoseconds between sends (1e9 / rate). */
  readonly intervalNs: number;
  readonly count: number;
  /** How early a tick is posted, to absorb the ~0.1-0.2 ms a message takes to reach the main thread. */
  readonly leadNs: number;
}

// A worker thread sleeps until each send is due with Atomics.wait, whose timeout is precise to
// microseconds, and posts the send's index. The main thread's own timers are not good enough:
// libuv rounds them to whole milliseconds (sends 0.6 ms late at the median, 1 ms at p90,
// measured here), which would swamp §C's sub-millisecond deltas; spinning on setImmediate is
// precise but burns the load generator's core, which the subgraphs share. Inline source, so the
// same code runs compiled and under vitest.
const CLOCK_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { startNs, intervalNs, count, leadNs } = workerData;
const cell = new Int32Array(new SharedArrayBuffer(4));
for (let i = 0; i < count; i++) {
  const wakeAt = startNs + BigInt(Math.round(i * intervalNs)) - BigInt(leadNs);
  for (;;) {
    const leftMs = Number(wakeAt - process.hrtime.bigint()) / 1e6;
    if (leftMs <= 0) break;
    Atomics.wait(cell, 0, 0, leftMs);
  }
  parentPort.postMessage(i);
}
parentPort.postMessage(-1);
`;

/** Calls `onTick(i)` shortly before each send is due (see ClockOptions.leadNs), then `onEnd()`. */
export function startClock(options: ClockOptions, onTick: (index: number) => void, onEnd: () => void): () => void {
  const worker = new Worker(CLOCK_SOURCE, { eval: true, workerData: options });
  worker.on('message', (index: number) => (index < 0 ? onEnd() : onTick(index)));
  worker.on('error', () => onEnd());
  return () => void worker.terminate();
}

/** When send `index` is due. */
export function dueAt(options: Pick<ClockOptions, 'startNs' | 'intervalNs'>, index: number): bigint {
  return options.startNs + BigInt(Math.round(index * options.intervalNs));
}
