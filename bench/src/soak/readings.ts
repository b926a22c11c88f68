import { readCpuSeconds, readRssMb } from '../measure/proc-stats.js';
import { scrapeMetrics } from '../observe/prometheus.js';
import { METRICS_PATH } from '../targets/setups.js';
import type { IntervalReadings } from './intervals.js';

/** prom-client's default metrics the soak reads (seconds and bytes, as Prometheus has them). */
export const SOAK_METRICS = {
  lagP99: 'nodejs_eventloop_lag_p99_seconds',
  lagMean: 'nodejs_eventloop_lag_mean_seconds',
  lagMax: 'nodejs_eventloop_lag_max_seconds',
  heapUsed: 'nodejs_heap_size_used_bytes',
} as const;

/**
 * Reads the gateway at the end of each interval: RSS and CPU from /proc (as the harness does),
 * the event-loop delay and heap from its metrics endpoint. prom-client resets its event-loop
 * histogram on every scrape, so each reading covers exactly the interval since the previous one.
 */
export function gatewayReader(pid: number, metricsPort: number): () => Promise<IntervalReadings> {
  let lastCpu = readCpuSeconds(pid);
  let lastAt = process.hrtime.bigint();
  const url = `http://127.0.0.1:${metricsPort}${METRICS_PATH}`;
  return async () => {
    const cpu = readCpuSeconds(pid);
    const at = process.hrtime.bigint();
    const wallSec = Number(at - lastAt) / 1e9;
    const cpuShare = cpu !== null && lastCpu !== null && wallSec > 0 ? round((cpu - lastCpu) / wallSec, 3) : null;
    lastCpu = cpu;
    lastAt = at;
    const rss = readRssMb(pid);
    const metrics = await scrapeMetrics(url).catch(() => null);
    const ms = (name: string) => {
      const seconds = metrics?.get(name);
      return seconds === undefined ? null : round(seconds * 1000, 3);
    };
    const heap = metrics?.get(SOAK_METRICS.heapUsed);
    return {
      rssMb: rss === null ? null : round(rss, 1),
      cpuShare,
      lagP99Ms: ms(SOAK_METRICS.lagP99),
      lagMeanMs: ms(SOAK_METRICS.lagMean),
      lagMaxMs: ms(SOAK_METRICS.lagMax),
      heapUsedMb: heap === undefined ? null : round(heap / 1024 ** 2, 1),
    };
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
