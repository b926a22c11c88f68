import type { RowResult, RowStatus, SendSchedule } from '../run/results.js';

/** What a reader sees for a cell with no number. */
export const NONE = '—';

/** One formatter per number of decimals: building an Intl.NumberFormat costs far more than using one. */
const formatters = new Map<number, Intl.NumberFormat>();
function grouped(digits: number): Intl.NumberFormat {
  let formatter = formatters.get(digits);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(digits, formatter);
  }
  return formatter;
}

/** 12,500 — thousands separators, a fixed number of decimals. */
export function formatNumber(value: number, digits = 0): string {
  return grouped(digits).format(value);
}

/** Decimals that keep about three significant digits without hiding sub-millisecond detail. */
function latencyDigits(ms: number): number {
  const abs = Math.abs(ms);
  if (abs < 1) return 3;
  if (abs < 10) return 2;
  if (abs < 100) return 1;
  return 0;
}

/** Latency with its unit: `0.652 ms`, `28.5 ms`, `310 ms`. */
export function formatMs(ms: number | undefined): string {
  return ms === undefined ? NONE : `${formatNumber(ms, latencyDigits(ms))} ms`;
}

/** A latency in a column whose header says `ms`: `0.652`, `28.5`, `310`. */
export function formatMsValue(ms: number | undefined): string {
  return ms === undefined ? NONE : formatNumber(ms, latencyDigits(ms));
}

/** Signed latency delta: `+0.044 ms`, `-0.030 ms`. */
export function formatDeltaMs(ms: number | undefined): string {
  if (ms === undefined) return NONE;
  const sign = ms > 0 ? '+' : ms < 0 ? '-' : '±';
  return `${sign}${formatNumber(Math.abs(ms), Math.max(2, latencyDigits(ms)))} ms`;
}

/** Throughput: `12,500 req/s`; below 100 one decimal. */
export function formatRps(rps: number | undefined): string {
  return rps === undefined ? NONE : `${formatNumber(rps, Math.round(rps) < 100 ? 1 : 0)} req/s`;
}

/** Throughput in a column whose header says `req/s`: `12,500`, `99.8`. */
export function formatRpsValue(rps: number | undefined): string {
  return rps === undefined ? NONE : formatNumber(rps, Math.round(rps) < 100 ? 1 : 0);
}

export function formatCount(count: number | undefined): string {
  return count === undefined ? NONE : formatNumber(count);
}

/** A count with its share of a total: `84 (0.04%)`, `0`; two significant digits below 1%. */
export function formatCountShare(count: number | undefined, total: number | undefined): string {
  if (count === undefined) return NONE;
  if (count === 0 || !total) return formatNumber(count);
  const percent = (count / total) * 100;
  // Never "(0.000%)" for a count that is not zero.
  if (percent < 0.001) return `${formatNumber(count)} (<0.001%)`;
  const digits = percent >= 10 ? 0 : percent >= 1 ? 1 : Math.min(3, 1 - Math.floor(Math.log10(percent)));
  return `${formatNumber(count)} (${formatNumber(percent, digits)}%)`;
}

/** Failed requests and their share of all requests the row sent. */
export function formatErrors(row: Pick<RowResult, 'errors' | 'requests'>): string {
  return formatCountShare(row.errors, row.errors === undefined ? undefined : (row.requests ?? 0) + row.errors);
}

/** Fixed-rate rows: sends that left more than 1 ms late, and their share of the schedule. */
export function formatLateSends(schedule: SendSchedule | undefined): string {
  return schedule ? formatCountShare(schedule.late, schedule.intended) : NONE;
}

export function formatCpuPer1k(cpuSec: number | undefined): string {
  return cpuSec === undefined ? NONE : `${formatCpuSecValue(cpuSec)} CPU-s/1k`;
}

/** CPU-seconds in a column whose header carries the unit: `0.378`, `1.19`. */
export function formatCpuSecValue(cpuSec: number | undefined): string {
  return cpuSec === undefined ? NONE : formatNumber(cpuSec, cpuSec < 1 ? 3 : 2);
}

export function formatRssMb(mb: number | undefined): string {
  return mb === undefined ? NONE : `${formatNumber(mb)} MB`;
}

/** 0.953 → `95%`; `digits` for kept percentages such as `64.9%`. */
export function formatShare(share: number | undefined): string {
  return share === undefined ? NONE : `${formatNumber(share * 100)}%`;
}

export function formatPercent(percent: number | undefined, digits = 1): string {
  return percent === undefined ? NONE : `${formatNumber(percent, digits)}%`;
}

/** Signed percentage change: `+18.8%`. */
export function formatGain(percent: number | undefined): string {
  if (percent === undefined) return NONE;
  return `${percent >= 0 ? '+' : '-'}${formatNumber(Math.abs(percent), 1)}%`;
}

/** A multiple: `3.90x`. */
export function formatRatio(ratio: number | undefined): string {
  return ratio === undefined || !Number.isFinite(ratio) ? NONE : `${formatNumber(ratio, 2)}x`;
}

/** A published multiple, with the precision it was published with: `3.9x`. */
export function formatPublishedRatio(ratio: number): string {
  return `${ratio}x`;
}

const STATUS_LABELS: Readonly<Record<RowStatus, string>> = {
  ok: 'ok',
  'wrong-answer': 'wrong answer',
  failed: 'failed',
  'not-installed': 'not installed',
  skipped: 'skipped',
};

export function statusLabel(status: RowStatus): string {
  return STATUS_LABELS[status];
}

/**
 * The status as a reader should see it: the message when there is one (prefixed with the
 * status unless the message already says it), otherwise the status label.
 */
export function statusText(row: Pick<RowResult, 'status' | 'message'>): string {
  const label = statusLabel(row.status);
  const message = row.message?.trim();
  if (!message) return label;
  return message.toLowerCase().startsWith(label) ? message : `${label}: ${message}`;
}

/** `100 conn.` for closed-loop rows, `300 req/s` for fixed-rate rows. */
export function formatLoad(row: Pick<RowResult, 'connections' | 'rate'>): string {
  if (row.rate !== undefined) return `${formatNumber(row.rate)} req/s`;
  if (row.connections !== undefined) return `${formatNumber(row.connections)} conn.`;
  return NONE;
}

/** Process-group names as words: `load` is the load generator; `subgraphs+load` a CPU they share. */
export function groupName(group: string): string {
  return group
    .split('+')
    .map((member) => (member === 'load' ? 'load generator' : member))
    .join(' + ');
}

/** The groups at ≥ 90% of their CPUs, busiest first: `gateway, subgraphs + load generator`; `none`. */
export function formatSaturated(saturated: readonly string[] | undefined): string {
  if (saturated === undefined) return NONE;
  return saturated.length === 0 ? 'none' : saturated.map(groupName).join(', ');
}

/** A scenario's heading: `§A — title`, once, even when a run's title already starts with its mark. */
export function scenarioHeading(scenario: { readonly id: string; readonly title: string }): string {
  return `§${scenario.id} — ${scenarioTitle(scenario)}`;
}

/** The title without a leading `§A`: older runs put the mark in the title too. */
export function scenarioTitle(scenario: { readonly id: string; readonly title: string }): string {
  return scenario.title.replace(new RegExp(`^\\s*§\\s*${scenario.id}\\b[\\s:—–-]*`), '').trim() || scenario.title;
}
