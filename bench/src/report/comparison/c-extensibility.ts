import type { RowResult, ScenarioResult } from '../../run/results.js';
import { isBaselineVariant, isOk, seedCFor } from '../compare.js';
import { formatDeltaMs, formatMs, formatNumber, NONE, statusLabel } from '../format.js';
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
  return [seedCTable(), oursC(scenario)];
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
