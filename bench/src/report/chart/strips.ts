import type { LatencySummary } from '../../run/results.js';
import { escapeHtml } from '../escape-html.js';
import { formatMs } from '../format.js';
import {
  axisRow,
  gridLines,
  groupHeading,
  labelCell,
  pct,
  type RowLabel,
  type RowStatus,
  statusText,
  style,
} from './parts.js';
import type { Scale } from './scale.js';

/** The percentiles a strip marks, each with its own shape (see `stripLegend`). */
const MARKS: readonly (readonly [Exclude<keyof LatencySummary, 'p999'>, string])[] = [
  ['p50', 'p50'],
  ['p90', 'p90'],
  ['p95', 'p95'],
  ['p99', 'p99'],
  ['max', 'max'],
];

export interface StripRow {
  readonly label: RowLabel;
  readonly latency?: LatencySummary;
  /** In the value column: `36.5 / 88.2 ms`. */
  readonly text?: string;
  /** Tooltip prefix: the row's full name. */
  readonly name: string;
  readonly status?: RowStatus;
}

export interface StripGroup {
  readonly heading?: string;
  readonly rows: readonly StripRow[];
}

export interface StripPlot {
  readonly groups: readonly StripGroup[];
  readonly scale: Scale;
  readonly axisTitle: string;
  /** Over the value column: which percentiles its numbers are, `p50 / p99 (ms)`; none: no value column. */
  readonly valueHeading?: string;
}

function stripRow(row: StripRow, scale: Scale, values: boolean): string {
  const label = labelCell(row.label);
  const latency = row.latency;
  const tail = values ? '<div></div>' : '';
  if (!latency) {
    const status = row.status ? statusText(row.status) : '';
    return `${label}<div class="track no-data"><div class="area">${status}</div></div>${tail}`;
  }
  const color = row.label.color;
  const x = (k: Exclude<keyof LatencySummary, 'p999'>) => scale.at(latency[k]);
  const span = (cls: string, from: number, to: number) =>
    `<span class="${cls}"${style(`left:${pct(from)};width:${pct(Math.max(0, to - from))};--c:${color}`)}></span>`;
  const marks = MARKS.map(
    ([k, name]) =>
      `<span class="mk ${name}" title="${escapeHtml(`${row.name} ${name}: ${formatMs(latency[k])}`)}"` +
      `${style(`left:${pct(x(k))};--c:${color}`)}></span>`,
  ).join('');
  const text = values ? `<div class="value-col">${escapeHtml(row.text ?? '')}</div>` : '';
  return (
    `${label}<div class="track"><div class="area">${gridLines(scale)}` +
    `${span('whisker', x('p50'), x('p99'))}${span('tail', x('p99'), x('max'))}${marks}</div></div>${text}`
  );
}

/**
 * One strip per row on a shared (log) latency axis: a dot at p50, ticks at p90 and p95, a
 * diamond at p99 and a ring at max, so the tail's shape reads at a glance and rows compare
 * down the page. The value column repeats two of them as numbers.
 */
export function stripPlot(plot: StripPlot): string {
  const values = plot.valueHeading !== undefined;
  const body = plot.groups
    .map(
      (g) => (g.heading ? groupHeading(g.heading) : '') + g.rows.map((r) => stripRow(r, plot.scale, values)).join(''),
    )
    .join('');
  const head = values
    ? `<div></div><div></div><div class="value-head">${escapeHtml(plot.valueHeading ?? '')}</div>`
    : '';
  return (
    `<div class="plot strips${values ? ' with-values' : ''}">${head}${body}` +
    `${axisRow(plot.scale, plot.axisTitle, values)}</div>`
  );
}

/** What each mark of a strip means. */
export function stripLegend(): string {
  const keys = MARKS.map(([, name]) => `<span class="key"><span class="mk ${name} static"></span>${name}</span>`);
  return `<p class="legend" aria-label="Marks">${keys.join('')}<span class="key">bar: p50 to p99; dashes: p99 to max</span></p>`;
}
