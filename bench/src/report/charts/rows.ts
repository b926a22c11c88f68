import type { LatencySummary, RowResult, ScenarioResult } from '../../run/results.js';
import type { BarRow } from '../chart/bars.js';
import type { RowLabel, RowStatus } from '../chart/parts.js';
import { logScale, type Scale } from '../chart/scale.js';
import type { StripRow } from '../chart/strips.js';
import { formatMsValue, statusText } from '../format.js';
import { noteNumbers } from '../row-notes.js';
import { targetColor } from '../target-colors.js';

/**
 * A row's label in a chart: `text` (the target unless said otherwise) in the target's colour,
 * with the ⚠ marks of the row and of every row its number derives from.
 */
export function rowLabel(
  scenario: ScenarioResult,
  row: RowResult,
  text = row.target,
  ...dependsOn: readonly (RowResult | undefined)[]
): RowLabel {
  return {
    text,
    target: row.target,
    color: targetColor(row.target),
    scenarioId: scenario.id,
    notes: noteNumbers(scenario, row, ...dependsOn),
  };
}

/** Why a row has no number: its status message, red for a failure, grey for a skip. */
export function rowStatus(row: RowResult): RowStatus {
  const muted = row.status === 'not-installed' || row.status === 'skipped' || row.status === 'ok';
  return { text: statusText(row), tone: muted ? 'muted' : 'bad' };
}

/** A bar, or the row's status when `value` is undefined. */
export function bar(label: RowLabel, row: RowResult, value: number | undefined, text: string, tip: string): BarRow {
  return value === undefined ? { label, status: rowStatus(row) } : { label, value, text, tip };
}

/** A latency strip with two percentiles as numbers in the value column. */
export function strip(
  label: RowLabel,
  row: RowResult,
  name: string,
  shown: readonly [keyof LatencySummary, keyof LatencySummary],
): StripRow {
  const l = row.latencyMs;
  if (!l) return { label, name, status: rowStatus(row) };
  return { label, name, latency: l, text: `${formatMsValue(l[shown[0]])} / ${formatMsValue(l[shown[1]])}` };
}

/** One log axis for every strip of `rows`: from the smallest p50 to the largest max. */
export function latencyScale(rows: readonly RowResult[], maxTicks?: number): Scale {
  const latencies = rows.flatMap((r) => (r.latencyMs ? [r.latencyMs] : []));
  const min = Math.min(...latencies.map((l) => l.p50));
  const max = Math.max(...latencies.map((l) => l.max));
  return latencies.length === 0 ? logScale(1, 10, maxTicks) : logScale(min, max, maxTicks);
}

/** Items grouped by `key`, groups and items in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups];
}
