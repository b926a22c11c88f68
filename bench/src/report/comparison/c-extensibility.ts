import type { RowResult, ScenarioResult } from '../../run/results.js';
import { compareWithRouter, isBaselineVariant, isOk, ROUTER_TARGET, seedCFor } from '../compare.js';
import { formatDeltaMs, formatMs, formatMsValue, formatNumber, formatRatio, NONE, statusLabel } from '../format.js';
import { noteNumbers } from '../row-notes.js';
import { SEED_C, type SeedDelta } from '../seed-reference.js';
import { type Cell, cell, markedCell, type Table } from '../table.js';
import { col, pair, seedCell } from './shared.js';

const signed = (n: number) => `${n >= 0 ? '+' : '-'}${formatNumber(Math.abs(n), 2)}`;
const deltaPair = (d: SeedDelta | null) => (d ? `${signed(d.p50)} / ${signed(d.p99)} ms` : 'n/a');
const p50p99 = (row: RowResult | undefined) =>
  row?.latencyMs ? `${formatMs(row.latencyMs.p50)} / ${formatMs(row.latencyMs.p99)}` : NONE;

/** §C: the published customization-overhead table, then the latency each of our customizations adds. */
export function comparisonC(scenario: ScenarioResult): Table[] {
  const hasRouter = scenario.rows.some((row) => row.target === ROUTER_TARGET);
  return [seedCTable(), oursC(scenario), ...(hasRouter ? [tailBesideRouter(scenario)] : [])];
}

/**
 * The same offered load on both: the tail a client feels, which a closed loop hides (a slow
 * gateway there just receives fewer requests). Issue 31's target is p99 ≤ 3x the Router's.
 */
function tailBesideRouter(scenario: ScenarioResult): Table {
  const both = (row: RowResult | undefined, a: 'p50' | 'p99', b: 'p99' | 'p999') =>
    `${formatMsValue(row?.latencyMs?.[a])} / ${formatMsValue(row?.latencyMs?.[b])}`;
  const rows = compareWithRouter(scenario).map((c): Cell[] => [
    cell(c.node.target),
    cell(c.node.variant),
    cell(both(c.node, 'p50', 'p99')),
    cell(both(c.router, 'p50', 'p99')),
    cell(formatRatio(c.p99Ratio)),
    cell(both(c.node, 'p99', 'p999')),
    cell(both(c.router, 'p99', 'p999')),
    cell(formatRatio(c.p999Ratio)),
    cell(formatRatio(c.cpuRatio)),
  ]);
  return {
    title: `Tail at the same offered load, beside ${ROUTER_TARGET}`,
    columns: [
      col('Target'),
      col('Variant'),
      col('p50 / p99 (ms)', true),
      col('Router p50 / p99 (ms)', true),
      col('p99 ÷ Router', true),
      col('p99 / p99.9 (ms)', true),
      col('Router p99 / p99.9 (ms)', true),
      col('p99.9 ÷ Router', true),
      col('CPU per request ÷ Router', true),
    ],
    rows,
    notes: ['Both at the same fixed arrival rate, so each ratio compares what the same clients would feel.'],
  };
}

function seedCTable(): Table {
  return {
    title: 'Seed reference (published): Router customization, latency added over the baseline (p50 / p99)',
    columns: [
      col('Test'),
      col('Baseline p50 / p99', true),
      col('config', true),
      col('Rhai', true),
      col('Node coprocessor', true),
      col('Go coprocessor', true),
    ],
    rows: SEED_C.tests.map((t) => [
      cell(t.title),
      cell(pair(t.baselineMs.p50, t.baselineMs.p99, 2)),
      cell(deltaPair(t.config)),
      cell(deltaPair(t.rhai)),
      cell(deltaPair(t.nodeCoprocessor)),
      cell(deltaPair(t.goCoprocessor)),
    ]),
    notes: [
      `Source: ${SEED_C.source}.`,
      'Deltas are sub-millisecond: our latencies keep microseconds for this reason.',
    ],
  };
}

function oursC(scenario: ScenarioResult): Table {
  const rows = scenario.rows
    .filter((row) => !isBaselineVariant(row.variant))
    .map((row): Cell[] => {
      const baseline = scenario.rows.find((r) => r.target === row.target && isBaselineVariant(r.variant));
      const seed = seedCFor(row.variant);
      const d = row.deltaVsBaselineMs;
      return [
        markedCell(row.target, noteNumbers(scenario, row, baseline)),
        cell(row.variant),
        cell(baseline && isOk(baseline) ? p50p99(baseline) : NONE),
        d ? cell(formatDeltaMs(d.p50)) : cell(isOk(row) ? NONE : statusLabel(row.status), 'muted'),
        cell(formatDeltaMs(d?.p99)),
        seedCell(seed ? seed.title : NONE),
        seedCell(seed ? deltaPair(seed.rhai) : NONE),
        seedCell(seed ? deltaPair(seed.nodeCoprocessor) : NONE),
      ];
    });
  return {
    title: 'Ours beside the seed: latency each customization adds',
    columns: [
      col('Target'),
      col('Variant'),
      col('Baseline p50 / p99', true),
      col('Δ p50', true),
      col('Δ p99', true),
      col('seed test'),
      col('seed Rhai (in-process)', true),
      col('seed Node coprocessor', true),
    ],
    rows,
    notes: ['A Node gateway plugin runs in-process, like Rhai in the Router; a coprocessor adds a network hop.'],
  };
}
