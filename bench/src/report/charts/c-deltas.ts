import type { RowResult, ScenarioResult } from '../../run/results.js';
import { barPlot } from '../chart/bars.js';
import { figure, panels } from '../chart/parts.js';
import { linearScale } from '../chart/scale.js';
import { isBaselineVariant, isOk } from '../compare.js';
import { formatDeltaMs, formatMs, statusText } from '../format.js';
import { groupBy, rowLabel, rowStatus } from './rows.js';

type Percentile = 'p50' | 'p99';

const baselineOf = (scenario: ScenarioResult, row: RowResult) =>
  scenario.rows.find((r) => r.target === row.target && isBaselineVariant(r.variant));

/** Why a customization row has no delta: its own status, or its baseline's. */
function noDelta(scenario: ScenarioResult, row: RowResult) {
  if (!isOk(row)) return rowStatus(row);
  const baseline = baselineOf(scenario, row);
  const text = baseline ? `no delta: baseline ${statusText(baseline)}` : 'no delta: no baseline row for this target';
  return { text, tone: 'muted' as const };
}

/**
 * §C: the latency each customization adds over the same target's baseline, p50 and p99 side
 * by side on one scale, one group per customization and a bar per target.
 */
export function chartsC(scenario: ScenarioResult): string[] {
  const rows = scenario.rows.filter((r) => !isBaselineVariant(r.variant));
  if (rows.length === 0) return [];
  const deltas = rows.flatMap((r) => (r.deltaVsBaselineMs ? [r.deltaVsBaselineMs.p50, r.deltaVsBaselineMs.p99] : []));
  const scale = linearScale(Math.min(0, ...deltas), Math.max(0, ...deltas), 4);
  const panel = (p: Percentile) => ({
    title: `Δ ${p} vs baseline`,
    body: barPlot({
      groups: groupBy(rows, (r) => r.variant).map(([variant, list]) => ({
        heading: variant,
        rows: list.map((row) => {
          const label = rowLabel(scenario, row, row.target, baselineOf(scenario, row));
          const delta = row.deltaVsBaselineMs?.[p];
          if (delta === undefined) return { label, status: noDelta(scenario, row) };
          const tip = `${row.target} · ${variant}: ${p} ${formatDeltaMs(delta)} vs baseline`;
          return { label, value: delta, text: formatDeltaMs(delta), tip };
        }),
      })),
      scale,
      axisTitle: 'milliseconds added (negative: faster than baseline)',
    }),
  });
  return [
    figure({
      id: `chart-${scenario.id}-deltas`,
      title: 'Latency each customization adds over its baseline, milliseconds',
      direction: 'closer to 0 is better',
      caption: `Each bar is one measured window minus the same target's baseline window. ${baselines(scenario)} The results hold one window per row and no repeated runs, so no run-to-run spread is shown: a difference smaller than that spread (not measured here) is noise.`,
      body: panels([panel('p50'), panel('p99')]),
    }),
  ];
}

/** `Baselines: nest-fastify p50 2.42 ms, p99 7.88 ms; …` */
function baselines(scenario: ScenarioResult): string {
  const list = scenario.rows
    .filter((r) => isBaselineVariant(r.variant) && r.latencyMs)
    .map((r) => `${r.target} p50 ${formatMs(r.latencyMs?.p50)}, p99 ${formatMs(r.latencyMs?.p99)}`);
  return list.length ? `Baselines: ${list.join('; ')}.` : '';
}
