import type { ScenarioResult } from '../../run/results.js';
import { barPlot } from '../chart/bars.js';
import { figure } from '../chart/parts.js';
import { linearScale } from '../chart/scale.js';
import { isBaselineVariant } from '../compare.js';
import { formatPercent, formatRps } from '../format.js';
import { bar, groupBy, rowLabel } from './rows.js';

/** §D: the share of the no-plugin row's throughput each stack keeps, per target, against a 100% line. */
export function chartsD(scenario: ScenarioResult): string[] {
  const kept = scenario.rows.map((r) => r.keptPercent ?? 0);
  const scale = linearScale(0, Math.max(100, ...kept));
  const groups = groupBy(scenario.rows, (r) => r.target).map(([target, rows]) => {
    const none = rows.find((r) => isBaselineVariant(r.variant));
    return {
      heading: target,
      rows: rows.map((row) =>
        bar(
          rowLabel(scenario, row, row.variant, none),
          row,
          row.keptPercent,
          `${formatPercent(row.keptPercent)} · ${formatRps(row.rps)}`,
          `${target} · ${row.variant}: ${formatPercent(row.keptPercent)} of no plugin (${formatRps(row.rps)})`,
        ),
      ),
    };
  });
  return [
    figure({
      id: `chart-${scenario.id}-kept`,
      title: 'Throughput kept as plugins stack up, % of the no-plugin row',
      direction: 'higher is better',
      caption: 'Each row against the same target\u2019s no-plugin row (the line at 100%).',
      body: barPlot({ groups, scale, axisTitle: '% of no-plugin throughput', references: [100] }),
    }),
  ];
}
