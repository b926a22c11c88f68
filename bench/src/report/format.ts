import type { RowResult, RowStatus } from '../results.js';

/** What a reader sees for a cell with no number. */
export const NONE = '—';

const grouped = (digits: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

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

export function formatCount(count: number | undefined): string {
  return count === undefined ? NONE : formatNumber(count);
}

export function formatCpuPer1k(cpuSec: number | undefined): string {
  return cpuSec === undefined ? NONE : `${formatNumber(cpuSec, cpuSec < 1 ? 3 : 2)} CPU-s/1k`;
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

/** Process-group names as words: `load` is the load generator. */
export function groupName(group: string): string {
  return group === 'load' ? 'load generator' : group;
}

/** True when the saturated group is the thing under test (the gateway, or the Router itself). */
export function isGatewayBottleneck(row: Pick<RowResult, 'bottleneck' | 'target'>): boolean {
  const b = row.bottleneck;
  return b === undefined || b === 'gateway' || b === 'router' || b === row.target;
}

/** The warning for rows whose throughput says nothing about the gateway. */
export function bottleneckWarning(row: Pick<RowResult, 'bottleneck' | 'target'>): string | undefined {
  if (isGatewayBottleneck(row) || row.bottleneck === undefined) return undefined;
  return `throughput limited by the ${groupName(row.bottleneck)}, not the gateway`;
}
