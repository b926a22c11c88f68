import type { RowResult, ScenarioResult } from '../results.js';
import { formatLoad } from './format.js';
import { PALETTE, truncate } from './svg.js';

/** Line patterns for the second dimension of a chart (solid first). */
const DASHES = [undefined, '7 4', '2 3', '9 3 2 3', '14 4', '4 6'] as const;

export interface SeriesStyle {
  /** Unique within the scenario: target · variant, plus the load when that pair repeats (§E's rates). */
  readonly label: string;
  readonly color: string;
  readonly dash: string | undefined;
}

type Dimension = (row: RowResult) => string;
const DIMENSIONS: readonly Dimension[] = [(r) => r.target, (r) => r.variant, formatLoad];

const measured = (row: RowResult) => row.rps !== undefined || row.latencyMs !== undefined;

/** `target · variant`, with ` · 300 req/s` added where target and variant alone repeat. */
export function rowLabels(rows: readonly RowResult[]): string[] {
  const count = new Map<string, number>();
  const key = (r: RowResult) => `${r.target}\u0000${r.variant}`;
  for (const r of rows) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
  return rows.map((r) => `${r.target} · ${r.variant}${(count.get(key(r)) ?? 0) > 1 ? ` · ${formatLoad(r)}` : ''}`);
}

/** A label that fits `max` characters by shortening the variant, keeping the target and the load. */
export function shortLabel(row: RowResult, full: string, max: number): string {
  if (full.length <= max) return full;
  const load = full.endsWith(` · ${formatLoad(row)}`) ? ` · ${formatLoad(row)}` : '';
  const head = `${row.target} · `;
  const room = max - head.length - load.length;
  return room >= 6 ? `${head}${truncate(row.variant, room)}${load}` : truncate(full, max);
}

/**
 * Colour and line pattern per row, the same in every chart of the scenario: colour follows the
 * first of target, variant, load that varies among measured rows; the line pattern the next one.
 */
export function seriesStyles(scenario: ScenarioResult): SeriesStyle[] {
  const rows = scenario.rows;
  const withNumbers = rows.filter(measured);
  const varying = DIMENSIONS.filter((d) => new Set(withNumbers.map(d)).size > 1);
  const colorBy = varying[0] ?? DIMENSIONS[0];
  const dashBy = varying[1];
  const colorKeys = [...new Set(withNumbers.map((r) => colorBy?.(r) ?? ''))];
  const dashKeys = dashBy ? [...new Set(withNumbers.map(dashBy))] : [];
  const labels = rowLabels(rows);
  return rows.map((row, i) => {
    const c = Math.max(0, colorKeys.indexOf(colorBy?.(row) ?? ''));
    const d = dashBy ? Math.max(0, dashKeys.indexOf(dashBy(row))) : 0;
    // Past the palette, colours repeat with the next pattern.
    const dashIndex = (d + Math.floor(c / PALETTE.length)) % DASHES.length;
    return {
      label: labels[i] ?? '',
      color: PALETTE[c % PALETTE.length] ?? '#333',
      dash: DASHES[dashIndex],
    };
  });
}
