import type { ScenarioResult } from '../../run/results.js';
import { isBaselineVariant, isOk, seedDFor } from '../compare.js';
import { formatNumber, formatPercent, formatRps, NONE, statusLabel } from '../format.js';
import { noteNumbers } from '../row-notes.js';
import { SEED_D } from '../seed-reference.js';
import { cell, markedCell, type Table } from '../table.js';
import { col, seedCell } from './shared.js';

/** §D: the published plugin-stacking table, then the throughput we keep as plugins stack up. */
export function comparisonD(scenario: ScenarioResult): Table[] {
  return [seedDTable(), oursD(scenario)];
}

function seedDTable(): Table {
  return {
    title: 'Seed reference (published): plugin stacking, APISIX 3.0 vs Kong 3.0',
    columns: [col('Scenario'), col('APISIX', true), col('Kong', true), col('Kept vs no plugin (APISIX / Kong)', true)],
    rows: SEED_D.rows.map((r) => [
      cell(r.title),
      cell(`${formatNumber(r.apisixQps)} req/s`),
      cell(`${formatNumber(r.kongQps)} req/s`),
      cell(`${r.apisixKeptPercent}% / ${r.kongKeptPercent}%`),
    ]),
    notes: [`Source: ${SEED_D.source}.`],
  };
}

function oursD(scenario: ScenarioResult): Table {
  return {
    title: 'Ours beside the seed: throughput kept as plugins stack up',
    columns: [
      col('Target'),
      col('Variant'),
      col('Throughput', true),
      col('Kept', true),
      col('seed kept (APISIX / Kong)', true),
    ],
    rows: scenario.rows.map((row) => {
      const seed = seedDFor(row.variant);
      const none = scenario.rows.find((r) => r.target === row.target && isBaselineVariant(r.variant));
      return [
        markedCell(row.target, noteNumbers(scenario, row, none)),
        cell(row.variant),
        isOk(row) ? cell(formatRps(row.rps)) : cell(statusLabel(row.status), 'bad'),
        cell(formatPercent(row.keptPercent)),
        seedCell(seed ? `${seed.apisixKeptPercent}% / ${seed.kongKeptPercent}%` : NONE),
      ];
    }),
  };
}
