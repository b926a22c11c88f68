import type { RowResult, ScenarioResult } from '../../run/results.js';
import { ADAPTER_PAIRS, comparePairs, isOk, NEST_PAIRS, seedBFor } from '../compare.js';
import { formatGain, formatMs, formatNumber, formatRps, NONE, statusLabel } from '../format.js';
import { noteNumbers } from '../row-notes.js';
import { SEED_B } from '../seed-reference.js';
import { type Cell, cell, markedCell, type Table } from '../table.js';
import { col, ms, pair, seedCell } from './shared.js';

/** §B: the published Express vs Fastify table, our Fastify gain beside it, then what NestJS itself costs. */
export function comparisonB(scenario: ScenarioResult): Table[] {
  return [seedBTable(), oursB(scenario), nestCost(scenario)];
}

function seedBTable(): Table {
  const { tailsAt50: t, helloWorldRatio: h } = SEED_B;
  return {
    title: 'Seed reference (published): NestJS ExpressAdapter vs FastifyAdapter',
    columns: [
      col('Load'),
      col('Express mean', true),
      col('Express req/s', true),
      col('Fastify mean', true),
      col('Fastify req/s', true),
      col('Fastify gain', true),
    ],
    rows: SEED_B.rows.map((r) => [
      cell(`${r.connections} concurrent, ${r.duration}`),
      cell(`${ms(r.express.meanMs, 1)} ms`),
      cell(`${formatNumber(r.express.rps)} req/s`),
      cell(`${ms(r.fastify.meanMs, 1)} ms`),
      cell(`${formatNumber(r.fastify.rps)} req/s`),
      cell(formatGain(r.gainPercent)),
    ]),
    notes: [
      `Source: ${SEED_B.source}.`,
      `p95 / p99 at 50 concurrent: Express ${pair(t.express.p95, t.express.p99)}, Fastify ${pair(t.fastify.p95, t.fastify.p99)}. Hello-world benchmarks put Fastify at ${h.low}–${h.high}x Express; under a federated GraphQL request the adapter is a small share of the cost.`,
    ],
  };
}

function oursB(scenario: ScenarioResult): Table {
  const rows = comparePairs(scenario, ADAPTER_PAIRS).map(({ variant, base, other, gainPercent }): Cell[] => {
    const seed = seedBFor(base.connections ?? other.connections);
    const side = (row: RowResult) =>
      isOk(row)
        ? [cell(formatRps(row.rps)), cell(formatMs(row.latencyMs?.mean))]
        : [cell(statusLabel(row.status), 'bad'), cell(NONE)];
    return [
      cell(variant),
      markedCell(`${base.target} → ${other.target}`, noteNumbers(scenario, base, other)),
      ...side(base),
      ...side(other),
      cell(formatGain(gainPercent), gainPercent === undefined ? 'muted' : undefined),
      seedCell(seed ? formatGain(seed.gainPercent) : NONE),
    ];
  });
  return {
    title: 'Ours beside the seed: Fastify gain over Express, same stack',
    columns: [
      col('Variant'),
      col('Pair'),
      col('Express req/s', true),
      col('Express mean', true),
      col('Fastify req/s', true),
      col('Fastify mean', true),
      col('Fastify gain', true),
      col('seed gain (same connections)', true),
    ],
    rows,
    notes: [
      'The seed measured a REST controller; a federated GraphQL request costs far more, so the adapter gap should shrink.',
    ],
  };
}

function nestCost(scenario: ScenarioResult): Table {
  return {
    title: 'What NestJS itself costs: bare framework vs the same framework under NestJS',
    columns: [
      col('Variant'),
      col('Bare target'),
      col('Bare req/s', true),
      col('NestJS target'),
      col('NestJS req/s', true),
      col('Throughput change', true),
    ],
    rows: comparePairs(scenario, NEST_PAIRS).map(({ variant, base, other, gainPercent }) => [
      cell(variant),
      markedCell(base.target, noteNumbers(scenario, base)),
      isOk(base) ? cell(formatRps(base.rps)) : cell(statusLabel(base.status), 'bad'),
      markedCell(other.target, noteNumbers(scenario, other)),
      isOk(other) ? cell(formatRps(other.rps)) : cell(statusLabel(other.status), 'bad'),
      cell(formatGain(gainPercent), gainPercent === undefined ? 'muted' : undefined),
    ]),
  };
}
