import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Clock } from '../../plugin-sdk/index.js';

/** What `monitorEventLoopDelay` gives: the mean delay of the samples since the last reset (ns). */
export interface DelayHistogram {
  readonly mean: number;
  reset(): void;
  disable(): void;
}

/** The event-loop delay of the last sampling window, and a way to stop sampling. */
export interface EventLoopDelay {
  /** Mean event-loop delay over the last complete window, ms (0 before the first). */
  delayMs(): number;
  close(): void;
}

const RESOLUTION_MS = 10;

/**
 * Samples the event-loop delay with Node's own monitor (a libuv timer every 10 ms records how
 * late it ran): each `sampleMs` the window's mean becomes the reading and the histogram starts
 * over. The mean, as @fastify/under-pressure reads it: one long pause (a full GC) moves it far
 * less than a loop that is late on every tick, which is what overload looks like.
 */
export function sampleEventLoopDelay(
  sampleMs: number,
  clock: Clock,
  histogram: DelayHistogram = startMonitor(),
): EventLoopDelay {
  let last = 0;
  const timer = clock.every(sampleMs, () => {
    // Node records the whole interval between ticks; what is late is past the resolution.
    const mean = histogram.mean / 1e6;
    last = Number.isFinite(mean) ? Math.max(0, mean - RESOLUTION_MS) : 0;
    histogram.reset();
  });
  return {
    delayMs: () => last,
    close() {
      timer.cancel();
      histogram.disable();
    },
  };
}

function startMonitor(): DelayHistogram {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  return histogram;
}
