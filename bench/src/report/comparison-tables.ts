import type { RowResult, ScenarioResult } from '../results.js';
import {
  ADAPTER_PAIRS,
  comparePairs,
  compareWithRouter,
  isBaselineVariant,
  isComplexQueryVariant,
  isOk,
  NEST_PAIRS,
  ROUTER_TARGET,
  rateSteps,
  seedBFor,
  seedCFor,
  seedDFor,
  seedP95Growth,
  variantsOf,
} from './compare.js';
import {
  formatDeltaMs,
  formatGain,
  formatLoad,
  formatMs,
  formatNumber,
  formatPercent,
  formatPublishedRatio,
  formatRatio,
  formatRps,
  NONE,
  statusLabel,
} from './format.js';
import { SEED_A, SEED_B, SEED_C, SEED_D, SEED_E, type SeedDelta } from './seed-reference.js';
import { type Cell, type Column, cell, type Table } from './table.js';

const col = (header: string, numeric = false): Column => (numeric ? { header, numeric } : { header });
const seedCell = (text: string): Cell => cell(text, 'seed');
/** Seed figures keep the precision they were published with (§C and §E: two decimals). */
const ms = (n: number, digits?: number) => (digits === undefined ? String(n) : n.toFixed(digits));
const seedRatio = formatPublishedRatio;
const pair = (a: number, b: number, digits?: number) => `${ms(a, digits)} / ${ms(b, digits)} ms`;
const signed = (n: number) => `${n >= 0 ? '+' : '-'}${formatNumber(Math.abs(n), 2)}`;
const deltaPair = (d: SeedDelta | null) => (d ? `${signed(d.p50)} / ${signed(d.p99)} ms` : 'n/a');
const p50p99 = (row: RowResult | undefined) =>
  row?.latencyMs ? `${formatMs(row.latencyMs.p50)} / ${formatMs(row.latencyMs.p99)}` : NONE;

/** The published table, then ours in the same shape with the seed's figure beside each of our ratios. */
export function comparisonTables(scenario: ScenarioResult): Table[] {
  switch (scenario.id) {
    case 'A':
      return [seedATable(), oursA(scenario)];
    case 'B':
      return [seedBTable(), oursB(scenario), nestCost(scenario)];
    case 'C':
      return [seedCTable(), oursC(scenario)];
    case 'D':
      return [seedDTable(), oursD(scenario)];
    case 'E':
      return [seedETable(), oursE(scenario)];
  }
}

// ---------------------------------------------------------------- §A

function seedATable(): Table {
  const { throughput: t, latencyMs: l, memoryAfter1hMb: m, complexQueryMs: c, sameCores } = SEED_A;
  const pct = (share: number) => `${formatNumber(share * 100)}% CPU`;
  const lat = (p: typeof l.router) => `${ms(p.p50)} / ${ms(p.p95)} / ${ms(p.p99)} / ${ms(p.max)} ms`;
  return {
    title: 'Seed reference (published): Apollo Router vs Node gateway',
    columns: [
      col('Measurement (100 concurrent)'),
      col('Apollo Router', true),
      col('Node gateway', true),
      col('Ratio', true),
    ],
    rows: [
      [
        cell('Throughput'),
        cell(`${formatNumber(t.routerRps)} req/s (${pct(t.routerCpuShare)})`),
        cell(`${formatNumber(t.nodeRps)} req/s (${pct(t.nodeCpuShare)})`),
        cell(seedRatio(t.ratio)),
      ],
      [
        cell('Latency p50 / p95 / p99 / max'),
        cell(lat(l.router)),
        cell(lat(l.node)),
        cell(`${seedRatio(l.ratioP50)} at p50, ${seedRatio(l.ratioP99)} at p99`),
      ],
      [
        cell('Memory after 1 h of load'),
        cell(`${m.router} MB`),
        cell(`${m.node} MB`),
        cell(`${formatNumber((m.router / m.node - 1) * 100)}%`),
      ],
      [
        cell('ComplexQuery mean / p99'),
        cell(pair(c.router.mean, c.router.p99)),
        cell(pair(c.node.mean, c.node.p99)),
        cell(`${seedRatio(c.ratioMean)} / ${seedRatio(c.ratioP99)}`),
      ],
    ],
    notes: [
      `Source: ${SEED_A.source}.`,
      `With the same cores as the Router, @apollo/gateway reaches about ${formatNumber(sameCores.nodeShareOfRouter * 100)}% of its throughput (${sameCores.ratioLow}–${sameCores.ratioHigh}x), not 26% (${t.ratio}x).`,
    ],
  };
}

/** The seed's Router ÷ Node figures for the query a §A variant runs. */
function seedAFor(variant: string) {
  if (isComplexQueryVariant(variant)) {
    const c = SEED_A.complexQueryMs;
    return { rps: NONE, mean: seedRatio(c.ratioMean), p50: NONE, p99: seedRatio(c.ratioP99), rss: NONE };
  }
  const { throughput: t, sameCores: s, latencyMs: l, memoryAfter1hMb: m } = SEED_A;
  return {
    rps: `${seedRatio(t.ratio)} (${s.ratioLow}–${s.ratioHigh}x same cores)`,
    mean: NONE,
    p50: seedRatio(l.ratioP50),
    p99: seedRatio(l.ratioP99),
    rss: `${formatRatio(m.node / m.router)} (after 1 h)`,
  };
}

function oursA(scenario: ScenarioResult): Table {
  const comparisons = compareWithRouter(scenario);
  const rows = variantsOf(scenario).flatMap((variant): Cell[][] => {
    const seed = seedAFor(variant);
    const line = (target: string, comparison: Cell, ratios: readonly (number | undefined)[] | undefined): Cell[] => {
      const ours = (i: number) => (ratios ? cell(formatRatio(ratios[i])) : cell(NONE, 'muted'));
      return [
        cell(target),
        cell(variant),
        comparison,
        ours(0),
        seedCell(seed.rps),
        ours(1),
        seedCell(seed.mean),
        ours(2),
        seedCell(seed.p50),
        ours(3),
        seedCell(seed.p99),
        ours(4),
        seedCell(seed.rss),
      ];
    };
    const list = comparisons.filter((c) => c.node.variant === variant);
    // No Router numbers: one line for the variant, not one per Node target.
    const noRouter = list.length > 0 && list.every((c) => c.unavailable && !(c.router && isOk(c.router)));
    if (noRouter) return [line('every Node target', cell(`n/a: ${list[0]?.unavailable}`, 'muted'), undefined)];
    return list.map((c) =>
      c.unavailable
        ? line(c.node.target, cell(`n/a: ${c.unavailable}`, 'muted'), undefined)
        : line(c.node.target, cell('ok', 'good'), [c.throughputRatio, c.meanRatio, c.p50Ratio, c.p99Ratio, c.rssRatio]),
    );
  });
  return {
    title: `Ours beside the seed: each Node target against ${ROUTER_TARGET}`,
    columns: [
      col('Node target'),
      col('Variant'),
      col('Comparison'),
      col('Router ÷ Node req/s', true),
      col('seed', true),
      col('Node ÷ Router mean', true),
      col('seed', true),
      col('Node ÷ Router p50', true),
      col('seed', true),
      col('Node ÷ Router p99', true),
      col('seed', true),
      col('Node ÷ Router peak RSS', true),
      col('seed', true),
    ],
    rows,
    notes: [
      'Above 1.00x the Router is ahead. The seed gave the Router more cores than the Node gateway; compare the shape, not the absolute numbers.',
    ],
  };
}

// ---------------------------------------------------------------- §B

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
      cell(`${base.target} → ${other.target}`),
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
      cell(base.target),
      isOk(base) ? cell(formatRps(base.rps)) : cell(statusLabel(base.status), 'bad'),
      cell(other.target),
      isOk(other) ? cell(formatRps(other.rps)) : cell(statusLabel(other.status), 'bad'),
      cell(formatGain(gainPercent), gainPercent === undefined ? 'muted' : undefined),
    ]),
  };
}

// ---------------------------------------------------------------- §C

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
        cell(row.target),
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

// ---------------------------------------------------------------- §D

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
      return [
        cell(row.target),
        cell(row.variant),
        isOk(row) ? cell(formatRps(row.rps)) : cell(statusLabel(row.status), 'bad'),
        cell(formatPercent(row.keptPercent)),
        seedCell(seed ? `${seed.apisixKeptPercent}% / ${seed.kongKeptPercent}%` : NONE),
      ];
    }),
  };
}

// ---------------------------------------------------------------- §E

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
      cell(row.target),
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
