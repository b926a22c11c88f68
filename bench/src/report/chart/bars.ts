import { escapeHtml } from '../escape-html.js';
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
  textWidthEm,
} from './parts.js';
import type { Scale } from './scale.js';

export interface BarRow {
  readonly label: RowLabel;
  /** The bar runs from 0 to `value` (left of 0 when negative); undefined: `status` instead. */
  readonly value?: number;
  /** Beside the bar's end: `2,588 req/s`. */
  readonly text?: string;
  /** The tooltip: the row and its exact value. */
  readonly tip?: string;
  readonly status?: RowStatus;
}

export interface BarGroup {
  readonly heading?: string;
  readonly rows: readonly BarRow[];
}

export interface BarPlot {
  readonly groups: readonly BarGroup[];
  readonly scale: Scale;
  readonly axisTitle: string;
  /** Reference lines (a 100% line, say), drawn stronger than the grid. */
  readonly references?: readonly number[];
}

function barRow(row: BarRow, plot: BarPlot): string {
  const { scale } = plot;
  const grid = gridLines(scale, plot.references);
  if (row.value === undefined) {
    const status = row.status ? statusText(row.status) : '';
    return `${labelCell(row.label)}<div class="track no-data"><div class="area">${status}</div></div>`;
  }
  const zero = scale.at(0);
  const end = scale.at(row.value);
  const [left, right] = end >= zero ? [zero, end] : [end, zero];
  const warned = row.label.notes.length > 0;
  const tip = row.tip ? ` title="${escapeHtml(row.tip)}"` : '';
  const bar =
    `<span class="bar${warned ? ' warned' : ''}"${tip}` +
    `${style(`left:${pct(left)};width:${pct(Math.max(0.4, right - left))};background-color:${row.label.color}`)}></span>`;
  const value = row.text
    ? `<span class="value${end < zero ? ' neg' : ''}"${style(`left:${pct(end)}`)}>${escapeHtml(row.text)}</span>`
    : '';
  return `${labelCell(row.label)}<div class="track"><div class="area">${grid}${bar}${value}</div></div>`;
}

/**
 * Horizontal bars, one per row, in groups; the value beside each bar's end, a row without a
 * number saying why. Room for the longest value is kept right of the plot (and left of it when
 * a bar is negative), so no value leaves the chart.
 */
export function barPlot(plot: BarPlot): string {
  const rows = plot.groups.flatMap((g) => g.rows);
  const widest = (negative: boolean) =>
    Math.max(
      0.5,
      ...rows.filter((r) => r.text && (r.value ?? 0) < 0 === negative).map((r) => textWidthEm(r.text ?? '')),
    );
  const body = plot.groups
    .map((g) => (g.heading ? groupHeading(g.heading) : '') + g.rows.map((r) => barRow(r, plot)).join(''))
    .join('');
  const reserve = `--rr:${widest(false)}em;--rl:${rows.some((r) => (r.value ?? 0) < 0) ? widest(true) : 0.5}em`;
  return `<div class="plot bars"${style(reserve)}>${body}${axisRow(plot.scale, plot.axisTitle, false)}</div>`;
}
