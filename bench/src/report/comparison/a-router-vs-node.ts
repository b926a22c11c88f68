import type { ScenarioResult } from '../../run/results.js';
import {
  comparePairs,
  compareWithRouter,
  FETCHER_PAIRS,
  isComplexQueryVariant,
  isOk,
  ROUTER_TARGET,
  variantsOf,
} from '../compare.js';
import {
  formatGain,
  formatNumber,
  formatRatio,
  formatRps,
  NONE,
  formatPublishedRatio as seedRatio,
  statusLabel,
} from '../format.js';
import { noteNumbers } from '../row-notes.js';
import { SEED_A } from '../seed-reference.js';
import { type Cell, cell, markedCell, type Table } from '../table.js';
import { col, ms, pair, seedCell } from './shared.js';

/** §A: the published Router vs Node table, each Node target against the Router, then what our fetcher changes. */
export function comparisonA(scenario: ScenarioResult): Table[] {
  const fetcher = fetcherTable(scenario);
  return [seedATable(), oursA(scenario), ...(fetcher.rows.length > 0 ? [fetcher] : [])];
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
    const seedLine = [seedCell('seed (published)'), seedCell(variant), seedCell('')].concat(
      [seed.rps, seed.mean, seed.p50, seed.p99, seed.rss].map(seedCell),
    );
    const line = (target: Cell, comparison: Cell, ratios: readonly (number | undefined)[] | undefined): Cell[] => [
      target,
      cell(variant),
      comparison,
      ...[0, 1, 2, 3, 4].map((i) => (ratios ? cell(formatRatio(ratios[i])) : cell(NONE, 'muted'))),
    ];
    const list = comparisons.filter((c) => c.node.variant === variant);
    // No Router numbers: one line for the variant, not one per Node target.
    const noRouter = list.length > 0 && list.every((c) => c.unavailable && !(c.router && isOk(c.router)));
    if (noRouter) {
      return [seedLine, line(cell('every Node target'), cell(`n/a: ${list[0]?.unavailable}`, 'muted'), undefined)];
    }
    return [
      seedLine,
      ...list.map((c) => {
        // A ratio is only as clean as both of its rows.
        const target = markedCell(c.node.target, noteNumbers(scenario, c.node, c.router));
        return c.unavailable
          ? line(target, cell(`n/a: ${c.unavailable}`, 'muted'), undefined)
          : line(target, cell('ok', 'good'), [c.throughputRatio, c.meanRatio, c.p50Ratio, c.p99Ratio, c.rssRatio]);
      }),
    ];
  });
  return {
    title: `Ours beside the seed: each Node target against ${ROUTER_TARGET}`,
    columns: [
      col('Node target'),
      col('Variant'),
      col('Comparison'),
      col('Router ÷ Node req/s', true),
      col('Node ÷ Router mean', true),
      col('Node ÷ Router p50', true),
      col('Node ÷ Router p99', true),
      col('Node ÷ Router peak RSS', true),
    ],
    rows,
    notes: [
      'Above 1.00x the Router is ahead. Each query opens with the seed\u2019s published ratios. The seed gave the Router more cores than the Node gateway; compare the shape, not the absolute numbers.',
    ],
  };
}

/** The same standalone server with Apollo's default fetcher and with our undici one: what the fetcher costs. */
function fetcherTable(scenario: ScenarioResult): Table {
  return {
    title: 'What the fetcher costs: the standalone server with its default fetcher vs our undici one',
    columns: [
      col('Variant'),
      col('Default fetcher'),
      col('req/s', true),
      col('Our undici fetcher'),
      col('req/s', true),
      col('Throughput change', true),
    ],
    rows: comparePairs(scenario, FETCHER_PAIRS).map(({ variant, base, other, gainPercent }) => [
      cell(variant),
      markedCell(base.target, noteNumbers(scenario, base)),
      isOk(base) ? cell(formatRps(base.rps)) : cell(statusLabel(base.status), 'bad'),
      markedCell(other.target, noteNumbers(scenario, other)),
      isOk(other) ? cell(formatRps(other.rps)) : cell(statusLabel(other.status), 'bad'),
      cell(formatGain(gainPercent), gainPercent === undefined ? 'muted' : undefined),
    ]),
    notes: ['Nothing else differs between the two: same server, same supergraph, no plugins.'],
  };
}
