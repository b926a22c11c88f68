import type { ScenarioResult } from '../../run/results.js';
import { figure } from '../chart/parts.js';
import { stripLegend, stripPlot } from '../chart/strips.js';
import { formatLoad, formatNumber } from '../format.js';
import { groupBy, latencyScale, rowLabel, strip } from './rows.js';

/** §E: latency percentiles as the arrival rate rises, one group per target and store, a strip per rate. */
export function chartsE(scenario: ScenarioResult): string[] {
  const groups = groupBy(scenario.rows, (r) => `${r.target} · ${r.variant}`).map(([heading, rows]) => ({
    heading,
    rows: [...rows]
      .sort((a, b) => (a.rate ?? 0) - (b.rate ?? 0))
      .map((row) =>
        strip(rowLabel(scenario, row, formatLoad(row)), row, `${heading} · ${formatLoad(row)}`, ['p50', 'p95']),
      ),
  }));
  const timeouts = [...new Set(scenario.rows.flatMap((r) => (r.failedAtMs === undefined ? [] : [r.failedAtMs])))];
  const failed = timeouts.length
    ? ` A failed request counts at ${timeouts.map((t) => `${formatNumber(t)} ms`).join(' or ')} (its timeout), so errors show as a longer tail.`
    : '';
  return [
    figure({
      id: `chart-${scenario.id}-rates`,
      title: 'Latency percentiles as the arrival rate rises, milliseconds (log scale)',
      direction: 'lower is better',
      caption: `Open loop: each latency counts from the request's intended start.${failed}`,
      legend: stripLegend(),
      body: stripPlot({
        groups,
        scale: latencyScale(scenario.rows),
        axisTitle: 'milliseconds (log scale)',
        valueHeading: 'p50 / p95 (ms)',
      }),
    }),
  ];
}
