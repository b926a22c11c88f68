import { LATE_SHARE_LIMIT } from '../measure/row-warnings.js';
import type { SoakInterval, SoakVerdict } from './results.js';

/** The resident set may grow this much from the first third of the run to the last. */
export const RSS_GROWTH_LIMIT_PERCENT = 10;
/** The worst interval's event-loop p99 may reach this (ms): beyond it every request waits that long. */
export const LAG_P99_LIMIT_MS = 100;

/**
 * The soak's verdict, from its intervals alone: the mean RSS of the last third of the intervals
 * against the first third (a leak shows as steady growth; the first third already holds the
 * warmed-up heap), any failed request, and the worst event-loop lag. Late sends are reported
 * but do not fail the gateway: they measure the load generator.
 */
export function soakVerdict(intervals: readonly SoakInterval[]): SoakVerdict {
  const findings: string[] = [];
  let pass = true;

  const rss = rssGrowth(intervals);
  if (!rss) {
    pass = false;
    findings.push('Too few RSS readings (fewer than 3 intervals) to compare the first and last thirds.');
  } else if (rss.growthPercent > rss.limitPercent) {
    pass = false;
    findings.push(
      `RSS grew ${fixed(rss.growthPercent)}% (${fixed(rss.firstThirdMb)} → ${fixed(rss.lastThirdMb)} MB, mean of ` +
        `the first vs the last third), more than ${rss.limitPercent}%: look for a leak.`,
    );
  } else {
    findings.push(
      `RSS: ${fixed(rss.firstThirdMb)} → ${fixed(rss.lastThirdMb)} MB (${signed(rss.growthPercent)}%, mean of the ` +
        `first vs the last third), within ${rss.limitPercent}%.`,
    );
  }

  const errors = sumErrors(intervals);
  const failed = intervals.reduce((sum, i) => sum + i.failed, 0);
  if (failed > 0) {
    pass = false;
    const kinds = Object.entries(errors)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, count]) => `${kind} × ${count}`)
      .join(', ');
    findings.push(`${failed} requests failed: ${kinds}.`);
  } else findings.push('No request failed.');

  const lag = worstLag(intervals);
  if (!lag) {
    pass = false;
    findings.push('No event-loop lag readings (the metrics endpoint did not answer).');
  } else if (lag.maxP99Ms > lag.limitP99Ms) {
    pass = false;
    findings.push(`Event-loop lag p99 reached ${fixed(lag.maxP99Ms)} ms in one interval (limit ${lag.limitP99Ms} ms).`);
  } else {
    findings.push(`Event-loop lag: worst interval p99 ${fixed(lag.maxP99Ms)} ms, max ${fixed(lag.maxMs)} ms.`);
  }

  const sent = intervals.reduce((sum, i) => sum + i.sent, 0);
  const late = intervals.reduce((sum, i) => sum + i.late, 0);
  if (sent > 0 && late / sent > LATE_SHARE_LIMIT) {
    findings.push(
      `⚠ ${fixed((late / sent) * 100)}% of sends left late: the load generator's core was busy, so the latency ` +
        'tail partly measures it.',
    );
  }
  return { pass, rss, failed, lag, findings };
}

function rssGrowth(intervals: readonly SoakInterval[]): SoakVerdict['rss'] {
  const readings = intervals.map((i) => i.rssMb).filter((v): v is number => v !== null);
  if (readings.length < 3) return null;
  const third = Math.floor(readings.length / 3);
  const firstThirdMb = mean(readings.slice(0, third));
  const lastThirdMb = mean(readings.slice(readings.length - third));
  return {
    firstThirdMb: round(firstThirdMb),
    lastThirdMb: round(lastThirdMb),
    growthPercent: round(((lastThirdMb - firstThirdMb) / firstThirdMb) * 100),
    limitPercent: RSS_GROWTH_LIMIT_PERCENT,
  };
}

function worstLag(intervals: readonly SoakInterval[]): SoakVerdict['lag'] {
  const p99 = intervals.map((i) => i.lagP99Ms).filter((v): v is number => v !== null);
  if (p99.length === 0) return null;
  const max = intervals.map((i) => i.lagMaxMs).filter((v): v is number => v !== null);
  return {
    maxP99Ms: Math.max(...p99),
    maxMs: max.length > 0 ? Math.max(...max) : Math.max(...p99),
    limitP99Ms: LAG_P99_LIMIT_MS,
  };
}

/** Every interval's error counts added up by kind. */
export function sumErrors(intervals: readonly Pick<SoakInterval, 'errors'>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const interval of intervals) {
    for (const [kind, count] of Object.entries(interval.errors)) total[kind] = (total[kind] ?? 0) + count;
  }
  return total;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function fixed(value: number): string {
  return value.toFixed(1);
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${fixed(Math.abs(value))}`;
}
