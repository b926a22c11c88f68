import type { RowResult, ScenarioResult } from '../run/results.js';
import { ROUTER } from '../targets/targets.js';
import { Footnotes, gain, markdownTable, ms, num, ratio } from './table.js';
import { subgraphCpuPer1k } from './versus-router.js';

const ok = (row: RowResult | undefined): RowResult | undefined => (row?.status === 'ok' ? row : undefined);
const find = (scenario: ScenarioResult, target: string, variant: string) =>
  scenario.rows.find((row) => row.target === target && row.variant === variant);
const targetsOf = (scenario: ScenarioResult) => [...new Set(scenario.rows.map((row) => row.target))];
const variantsOf = (scenario: ScenarioResult) => [...new Set(scenario.rows.map((row) => row.variant))];
const withNotes = (table: string, notes: Footnotes) => (notes.notes() ? `${table}\n\n${notes.notes()}` : table);

/** §A: every target × query, with the Router's throughput as a multiple of each one's. */
export function sectionA(scenario: ScenarioResult): string {
  return targetTable(scenario, false);
}

/** §F: §A's table plus the subgraphs' CPU per request (what dedup saves first). */
export function sectionF(scenario: ScenarioResult): string {
  return targetTable(scenario, true);
}

/** §G: per row, CPU per request (gateway, subgraphs), p50/p99 and subgraph requests per client request. */
export function sectionG(scenario: ScenarioResult): string {
  const notes = new Footnotes();
  const rows = scenario.rows.map((row) => {
    const measured = ok(row);
    return [
      `${row.target}${notes.mark(row)}`,
      row.variant,
      num(measured?.rps),
      measured?.latencyMs ? `${ms(measured.latencyMs.p50)} / ${ms(measured.latencyMs.p99)}` : '—',
      num(measured?.gatewayCpuSecPer1k, 3),
      num(subgraphCpuPer1k(measured), 3),
      num(measured?.subgraphRequestsPerRequest, 2),
    ];
  });
  const table = markdownTable(
    [
      'target',
      'variant',
      'req/s',
      'p50 / p99 ms',
      'CPU-ms per request',
      'subgraph CPU-ms per request',
      'subgraph requests per request',
    ],
    rows,
    2,
  );
  return withNotes(table, notes);
}

function targetTable(scenario: ScenarioResult, withSubgraphCpu: boolean): string {
  const notes = new Footnotes();
  // Only the pairs the run planned: a variant most targets do not run (`· dedup`) gets no empty rows.
  const rows = variantsOf(scenario).flatMap((query) =>
    targetsOf(scenario).flatMap((target) => {
      const row = find(scenario, target, query);
      if (!row) return [];
      const measured = ok(row);
      const router = ok(find(scenario, ROUTER, query));
      const cells = [
        `${target}${notes.mark(row)}`,
        query,
        num(measured?.rps),
        measured?.latencyMs ? `${ms(measured.latencyMs.p50)} / ${ms(measured.latencyMs.p99)}` : '—',
        num(measured?.gatewayCpuSecPer1k, 3),
        ...(withSubgraphCpu ? [num(subgraphCpuPer1k(measured), 3)] : []),
        num(measured?.gatewayPeakRssMb),
        target === ROUTER ? '' : ratio(router?.rps, measured?.rps),
      ];
      return [cells];
    }),
  );
  const rss = scenario.rows.some((row) => row.peakRssScope === 'row') ? 'peak RSS MB (row)' : 'peak RSS MB (process)';
  const table = markdownTable(
    [
      'target',
      'query',
      'req/s',
      'p50 / p99 ms',
      'CPU-ms per request',
      ...(withSubgraphCpu ? ['subgraph CPU-ms per request'] : []),
      rss,
      'Router ÷ target req/s',
    ],
    rows,
    2,
  );
  return withNotes(table, notes);
}

/** §B: per query, req/s of each mount per connection count, Fastify's gain and NestJS's cost. */
export function sectionB(scenario: ScenarioResult): string {
  const notes = new Footnotes();
  const queries = [...new Set(scenario.rows.map((row) => row.variant.split(' · ')[0] as string))];
  const connections = [...new Set(scenario.rows.map((row) => row.connections ?? 0))];
  const rows: string[][] = [];
  for (const query of queries) {
    for (const count of connections) {
      const at = (target: string) => find(scenario, target, `${query} · ${count} connections`);
      const rps = (target: string) => ok(at(target))?.rps;
      rows.push([
        query,
        String(count),
        ...['nest-express', 'nest-fastify', 'express', 'fastify'].map(
          (target) => `${num(rps(target))}${notes.mark(at(target))}`,
        ),
        gain(rps('nest-fastify'), rps('nest-express')),
        gain(rps('fastify'), rps('express')),
        gain(rps('nest-fastify'), rps('fastify')),
        gain(rps('nest-express'), rps('express')),
      ]);
    }
  }
  const table = markdownTable(
    [
      'query',
      'conn.',
      'nest-express',
      'nest-fastify',
      'express',
      'fastify',
      'Fastify vs Express (Nest)',
      'Fastify vs Express (bare)',
      'Nest vs bare (Fastify)',
      'Nest vs bare (Express)',
    ],
    rows,
  );
  return withNotes(table, notes);
}

/** §C: each customization's latency delta against the same target's baseline. */
export function sectionC(scenario: ScenarioResult): string {
  const notes = new Footnotes();
  const rows = targetsOf(scenario).flatMap((target) =>
    variantsOf(scenario).map((variant) => {
      const row = find(scenario, target, variant);
      const measured = ok(row);
      const latency = measured?.latencyMs;
      const delta = measured?.deltaVsBaselineMs;
      return [
        `${target}${notes.mark(row)}`,
        variant,
        latency ? `${ms(latency.p50)} / ${ms(latency.p99)}` : (row?.message ?? '—'),
        variant === 'baseline' || !delta ? '' : `${signed(delta.p50)} / ${signed(delta.p99)}`,
      ];
    }),
  );
  return withNotes(markdownTable(['target', 'customization', 'p50 / p99 ms', 'Δ vs baseline ms'], rows, 2), notes);
}

/** §D: each plugin stack's throughput, kept share of `none`, and CPU per request. */
export function sectionD(scenario: ScenarioResult): string {
  const notes = new Footnotes();
  const rows = scenario.rows.map((row) => [
    `${row.target} · ${row.variant}${notes.mark(row)}`,
    num(ok(row)?.rps),
    row.keptPercent === undefined ? '—' : `${num(row.keptPercent, 1)}%`,
    num(ok(row)?.gatewayCpuSecPer1k, 3),
  ]);
  return withNotes(markdownTable(['stack', 'req/s', 'kept', 'CPU-ms per request'], rows), notes);
}

/** §E: latency percentiles per store and rate, with failures and late sends beside them. */
export function sectionE(scenario: ScenarioResult): string {
  const notes = new Footnotes();
  const rows = scenario.rows.map((row) => {
    const latency = ok(row)?.latencyMs;
    const late = row.schedule ? `${num((row.schedule.late / Math.max(1, row.schedule.intended)) * 100, 1)}%` : '—';
    return [
      `${row.target} · ${row.variant}${notes.mark(row)}`,
      num(row.rate),
      ...(latency
        ? [latency.mean, latency.p50, latency.p90, latency.p95, latency.p99].map(ms)
        : ['—', '—', '—', '—', '—']),
      num(row.errors),
      late,
    ];
  });
  const table = markdownTable(['store', 'req/s', 'avg', 'p50', 'p90', 'p95', 'p99', 'failed', 'late sends'], rows);
  return withNotes(table, notes);
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;
}
