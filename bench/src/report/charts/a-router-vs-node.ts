import type { RowResult, ScenarioResult } from '../../run/results.js';
import { barPlot } from '../chart/bars.js';
import { figure } from '../chart/parts.js';
import { linearScale } from '../chart/scale.js';
import { stripLegend, stripPlot } from '../chart/strips.js';
import { isOk, ROUTER_TARGET, variantsOf } from '../compare.js';
import { formatNumber, formatRps, formatRssMb } from '../format.js';
import { noteMark, noteNumbers } from '../row-notes.js';
import { bar, latencyScale, rowLabel, strip } from './rows.js';

/** §A: throughput, latency and memory per target, each query a group, the Router's share beside each bar. */
export function chartsA(scenario: ScenarioResult): string[] {
  return [throughput(scenario), latency(scenario), memory(scenario)];
}

const byVariant = (scenario: ScenarioResult) =>
  variantsOf(scenario).map((variant) => ({ variant, rows: scenario.rows.filter((r) => r.variant === variant) }));

/** `72% of Router` for a Node row when both rows are ok, with the Router row's ⚠ marks. */
function shareOfRouter(scenario: ScenarioResult, row: RowResult, rows: readonly RowResult[]): string {
  const router = rows.find((r) => r.target === ROUTER_TARGET);
  if (row === router || !router || !isOk(router) || !router.rps || row.rps === undefined) return '';
  const marks = noteMark(noteNumbers(scenario, router));
  return ` · ${formatNumber((row.rps / router.rps) * 100)}% of Router${marks ? ` ${marks}` : ''}`;
}

function throughput(scenario: ScenarioResult): string {
  const scale = linearScale(0, Math.max(0, ...scenario.rows.map((r) => r.rps ?? 0)));
  const groups = byVariant(scenario).map(({ variant, rows }) => ({
    heading: variant,
    rows: rows.map((row) =>
      bar(
        rowLabel(scenario, row),
        row,
        row.rps,
        `${formatRps(row.rps)}${shareOfRouter(scenario, row, rows)}`,
        `${row.target} · ${variant}: ${formatRps(row.rps)}`,
      ),
    ),
  }));
  return figure({
    id: `chart-${scenario.id}-throughput`,
    title: 'Throughput, requests per second',
    direction: 'higher is better',
    caption: `Successful requests only. Beside each Node target: its throughput as a share of ${ROUTER_TARGET}'s on the same query.`,
    body: barPlot({ groups, scale, axisTitle: 'requests per second' }),
  });
}

function latency(scenario: ScenarioResult): string {
  const groups = byVariant(scenario).map(({ variant, rows }) => ({
    heading: variant,
    rows: rows.map((row) => strip(rowLabel(scenario, row), row, `${row.target} · ${variant}`, ['p50', 'p99'])),
  }));
  return figure({
    id: `chart-${scenario.id}-latency`,
    title: 'Latency percentiles, milliseconds (log scale)',
    direction: 'lower is better',
    caption: 'Every successful request of the measured window, exact percentiles.',
    legend: stripLegend(),
    body: stripPlot({
      groups,
      scale: latencyScale(scenario.rows),
      axisTitle: 'milliseconds (log scale)',
      valueHeading: 'p50 / p99 (ms)',
    }),
  });
}

function memory(scenario: ScenarioResult): string {
  const measured = scenario.rows.filter((r) => r.gatewayPeakRssMb !== undefined);
  if (measured.length === 0) return '';
  const lifetime = (row: RowResult) => (row.peakRssScope === 'process' ? ' (process lifetime)' : '');
  const scale = linearScale(0, Math.max(...measured.map((r) => r.gatewayPeakRssMb ?? 0)));
  const groups = byVariant(scenario).map(({ variant, rows }) => ({
    heading: variant,
    rows: rows.map((row) =>
      row.gatewayPeakRssMb === undefined && row.status === 'ok'
        ? {
            label: rowLabel(scenario, row),
            status: { text: 'not measured (external process)', tone: 'muted' as const },
          }
        : bar(
            rowLabel(scenario, row),
            row,
            row.gatewayPeakRssMb,
            `${formatRssMb(row.gatewayPeakRssMb)}${lifetime(row)}`,
            `${row.target} · ${variant}: peak RSS ${formatRssMb(row.gatewayPeakRssMb)}${lifetime(row)}`,
          ),
    ),
  }));
  const anyLifetime = measured.some((r) => r.peakRssScope === 'process');
  return figure({
    id: `chart-${scenario.id}-memory`,
    title: 'Peak resident memory (RSS), MB',
    direction: 'lower is better',
    caption:
      "Each row's own measured window (VmHWM reset when it starts). One process serves both queries, so the second query's peak is its memory after sustained load." +
      (anyLifetime ? ' "process lifetime": the reset was refused, so this is the peak since the process started.' : ''),
    body: barPlot({ groups, scale, axisTitle: 'megabytes' }),
  });
}
