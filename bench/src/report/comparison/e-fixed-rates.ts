import type { ScenarioResult } from '../../run/results.js';
import { isOk, rateSteps, seedP95Growth } from '../compare.js';
import { formatLoad, formatMs, formatRatio, formatRps, statusLabel } from '../format.js';
import { noteNumbers } from '../row-notes.js';
import { SEED_E } from '../seed-reference.js';
import { type Cell, cell, markedCell, type Table } from '../table.js';
import { col, pair, seedCell } from './shared.js';

/** §E: the published fixed-rate table, then how our tail grows with the arrival rate. */
export function comparisonE(scenario: ScenarioResult): Table[] {
  return [seedETable(), oursE(scenario)];
}

function seedETable(): Table {
  const avgP95 = (v: { avg: number; p95: number }) => pair(v.avg, v.p95, 2);
  return {
    title: 'Seed reference (published): Kong plugin languages at fixed arrival rates (avg / p95)',
    columns: [col('Rate'), col('Lua', true), col('Go', true), col('Python', true), col('JavaScript', true)],
    rows: SEED_E.rows.map((r) => [
      cell(`${r.rate} req/s`),
      cell(avgP95(r.lua)),
      cell(avgP95(r.go)),
      cell(avgP95(r.python)),
      cell(avgP95(r.javascript)),
    ]),
    notes: [`Source: ${SEED_E.source}.`],
  };
}

function oursE(scenario: ScenarioResult): Table {
  const rows = rateSteps(scenario).flatMap((steps) =>
    steps.map(({ row, p95Growth }): Cell[] => [
      // The growth is against the lowest rate's row: its warnings count too.
      markedCell(row.target, noteNumbers(scenario, row, steps[0]?.row)),
      cell(row.variant),
      cell(formatLoad(row)),
      isOk(row) ? cell(formatRps(row.rps)) : cell(statusLabel(row.status), 'bad'),
      cell(formatMs(row.latencyMs?.mean)),
      cell(formatMs(row.latencyMs?.p95)),
      cell(formatRatio(p95Growth)),
      seedCell(
        `${formatRatio(seedP95Growth(row.rate, 'lua'))} / ${formatRatio(seedP95Growth(row.rate, 'javascript'))}`,
      ),
    ]),
  );
  return {
    title: 'Ours beside the seed: how the tail grows with the arrival rate',
    columns: [
      col('Target'),
      col('Variant'),
      col('Rate', true),
      col('Achieved', true),
      col('Mean', true),
      col('p95', true),
      col('p95 ÷ p95 at lowest rate', true),
      col('seed p95 growth (Lua / JavaScript)', true),
    ],
    rows,
    notes: [
      'The seed\u2019s Lua plugin runs in-process, its JavaScript plugin out of process: the tail breaks first, and sooner across a hop.',
    ],
  };
}
