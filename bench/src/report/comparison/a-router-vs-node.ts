import type { ScenarioResult } from '../../results.js';
import { compareWithRouter, isComplexQueryVariant, isOk, ROUTER_TARGET, variantsOf } from '../compare.js';
import { formatNumber, formatRatio, NONE, formatPublishedRatio as seedRatio } from '../format.js';
import { SEED_A } from '../seed-reference.js';
import { type Cell, cell, type Table } from '../table.js';
import { col, ms, pair, seedCell } from './shared.js';

/** §A: the published Router vs Node table, then each Node target against the Router. */
export function comparisonA(scenario: ScenarioResult): Table[] {
  return [seedATable(), oursA(scenario)];
}

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
