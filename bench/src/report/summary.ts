import type { BenchResults, RowResult, ScenarioResult } from '../run/results.js';
import { compareWithRouter, isComplexQueryVariant, ROUTER_TARGET } from './compare.js';
import {
  formatCpuPer1k,
  formatDeltaMs,
  formatErrors,
  formatLateSends,
  formatLoad,
  formatMs,
  formatNumber,
  formatPercent,
  formatPublishedRatio,
  formatRatio,
  formatRps,
  formatRssMb,
  formatSaturated,
  scenarioTitle,
  statusLabel,
  statusText,
} from './format.js';
import { noteMark, rowNotes } from './row-notes.js';
import { SEED_A } from './seed-reference.js';

/** Control characters (ANSI escapes included) from results must not drive the terminal. */
const plain = (text: string) => text.replace(/\p{Cc}/gu, ' ');

interface SummaryColumn {
  readonly header: string;
  readonly right?: boolean;
  readonly value: (row: RowResult) => string;
}

const hasNumbers = (row: RowResult) => row.rps !== undefined || row.latencyMs !== undefined;

function columnsFor(scenario: ScenarioResult): SummaryColumn[] {
  const l = (row: RowResult) => row.latencyMs;
  const notes = rowNotes(scenario);
  const mark = (row: RowResult) => {
    const note = notes.find((n) => n.row === row);
    return note ? ` ${noteMark([note.number])}` : '';
  };
  return [
    { header: 'target', value: (r) => `${plain(r.target)}${mark(r)}` },
    { header: 'variant', value: (r) => plain(r.variant) },
    { header: 'status', value: (r) => statusLabel(r.status) },
    { header: 'load', right: true, value: formatLoad },
    { header: 'throughput', right: true, value: (r) => formatRps(r.rps) },
    { header: 'p50', right: true, value: (r) => formatMs(l(r)?.p50) },
    { header: 'p90', right: true, value: (r) => formatMs(l(r)?.p90) },
    { header: 'p95', right: true, value: (r) => formatMs(l(r)?.p95) },
    { header: 'p99', right: true, value: (r) => formatMs(l(r)?.p99) },
    { header: 'max', right: true, value: (r) => formatMs(l(r)?.max) },
    { header: 'errors', right: true, value: formatErrors },
    ...(scenario.kind === 'fixed-rate'
      ? [{ header: 'late sends', right: true, value: (r: RowResult) => formatLateSends(r.schedule) }]
      : []),
    { header: 'gateway CPU', right: true, value: (r) => formatCpuPer1k(r.gatewayCpuSecPer1k) },
    { header: 'peak RSS', right: true, value: (r) => formatRssMb(r.gatewayPeakRssMb) },
    ...(scenario.rows.some((r) => r.deltaVsBaselineMs)
      ? [
          { header: 'Δp50', right: true, value: (r: RowResult) => formatDeltaMs(r.deltaVsBaselineMs?.p50) },
          { header: 'Δp99', right: true, value: (r: RowResult) => formatDeltaMs(r.deltaVsBaselineMs?.p99) },
        ]
      : []),
    ...(scenario.rows.some((r) => r.keptPercent !== undefined)
      ? [{ header: 'kept', right: true, value: (r: RowResult) => formatPercent(r.keptPercent) }]
      : []),
    { header: 'saturated', value: (r) => plain(formatSaturated(r.saturated)) },
  ];
}

function scenarioLines(scenario: ScenarioResult): string[] {
  const columns = columnsFor(scenario);
  // A row without numbers prints its status message in place of them (it does not set widths).
  const measured = scenario.rows.filter(hasNumbers);
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...(i < 3 ? scenario.rows : measured).map((r) => c.value(r).length)),
  );
  const pad = (text: string, i: number) => {
    const column = columns[i];
    const width = widths[i] ?? 0;
    return column?.right ? text.padStart(width) : text.padEnd(width);
  };
  const join = (cells: string[]) => `  ${cells.map(pad).join('  ')}`.trimEnd();
  const lines = [
    `§${scenario.id}  ${plain(scenarioTitle(scenario))}  (${scenario.kind})`,
    join(columns.map((c) => c.header)),
  ];
  for (const row of scenario.rows) {
    if (!hasNumbers(row) && row.status !== 'ok') {
      lines.push(join([...columns.slice(0, 2).map((c) => c.value(row)), plain(statusText(row))]));
      continue;
    }
    const line = join(columns.map((c) => c.value(row)));
    lines.push(row.status !== 'ok' && row.message ? `${line}  (${plain(row.message)})` : line);
  }
  // Why a marked row may not measure its target alone, right under the table.
  for (const note of rowNotes(scenario)) {
    lines.push(`  ${noteMark([note.number])} ${plain(note.label)}: ${plain(note.warnings.join('; '))}`);
  }
  if (scenario.id === 'A') lines.push(...routerRatioLines(scenario));
  return lines;
}

/** §A: each Node target against the Router, when both rows are ok; one line saying why otherwise. */
function routerRatioLines(scenario: ScenarioResult): string[] {
  const comparisons = compareWithRouter(scenario);
  const ok = comparisons.filter((c) => !c.unavailable);
  const seed = formatPublishedRatio;
  const lines = ok.map((c) => {
    const share = c.throughputRatio ? formatNumber(100 / c.throughputRatio) : '—';
    const reference = isComplexQueryVariant(c.node.variant)
      ? `seed: mean ${seed(SEED_A.complexQueryMs.ratioMean)}, p99 ${seed(SEED_A.complexQueryMs.ratioP99)}`
      : `seed: ${seed(SEED_A.throughput.ratio)} (${SEED_A.sameCores.ratioLow}–${SEED_A.sameCores.ratioHigh}x same cores), p50 ${seed(SEED_A.latencyMs.ratioP50)}, p99 ${seed(SEED_A.latencyMs.ratioP99)}`;
    return (
      `  ${plain(c.node.target)} vs ${ROUTER_TARGET} (${plain(c.node.variant)}): ` +
      `CPU per request ${formatRatio(c.cpuRatio)} the Router's, peak RSS ${formatRatio(c.rssRatio)}, ` +
      `${share}% of Router throughput (Router ${formatRatio(c.throughputRatio)}), ` +
      `latency p50 ${formatRatio(c.p50Ratio)}, p99 ${formatRatio(c.p99Ratio)} [${reference}]`
    );
  });
  const unavailable = comparisons.filter((c) => c.unavailable);
  const reasons = plain([...new Set(unavailable.map((c) => c.unavailable))].join('; '));
  if (unavailable.length === 0) return lines;
  if (ok.length === 0) return [`  ratio to ${ROUTER_TARGET}: n/a (${reasons})`];
  lines.push(`  ratio to ${ROUTER_TARGET}: n/a for ${unavailable.length} more rows (${reasons})`);
  return lines;
}

/** A plain-text, side-by-side summary of every scenario, for the terminal. */
export function formatSummaryTable(results: BenchResults): string {
  return results.scenarios.map((s) => scenarioLines(s).join('\n')).join('\n\n');
}
