import { comparePairs, NEST_PAIRS } from '../report/compare.js';
import type { BenchResults, RowResult, ScenarioResult } from '../run/results.js';
import { GATEWAY_MOUNTS, ROUTER, STANDALONE, STANDALONE_UNDICI } from '../targets/targets.js';
import { ms, num } from './table.js';

// Sentences computed from the run, so the README cannot claim more than the data shows.

const measured = (scenario: ScenarioResult | undefined, target: string, variant: string): RowResult | undefined =>
  scenario?.rows.find((row) => row.target === target && row.variant === variant && row.status === 'ok');

const x = (value: number) => `${num(value, 2)}x`;

/** §A: the Router's throughput over each Node target's, and what the fetcher alone changes. */
export function findingsA(scenario: ScenarioResult): string[] {
  const lines: string[] = [];
  for (const query of [...new Set(scenario.rows.map((row) => row.variant))]) {
    const routerRps = measured(scenario, ROUTER, query)?.rps;
    if (!routerRps) continue;
    const multiples = GATEWAY_MOUNTS.flatMap((target) => {
      const row = measured(scenario, target, query);
      return row?.rps ? [{ target, multiple: routerRps / row.rps }] : [];
    }).sort((a, b) => a.multiple - b.multiple);
    const standalone = measured(scenario, STANDALONE, query);
    const low = multiples[0];
    const high = multiples.at(-1);
    if (!low || !high) continue;
    const range =
      low === high
        ? `${x(low.multiple)} the throughput of ${low.target}`
        : `${x(low.multiple)} (${low.target}) to ${x(high.multiple)} (${high.target}) the throughput of our mounts`;
    lines.push(
      `${query}: Apollo Router served ${range}` +
        (standalone?.rps ? `, and ${x(routerRps / standalone.rps)} that of standalone.` : '.'),
    );
    const undici = measured(scenario, STANDALONE_UNDICI, query);
    if (standalone?.rps && undici?.rps) {
      lines.push(
        `${query}, same server with only the fetcher changed: standalone-undici served ` +
          `${x(undici.rps / standalone.rps)} standalone's throughput, at ${num(undici.gatewayCpuSecPer1k, 3)} vs ` +
          `${num(standalone.gatewayCpuSecPer1k, 3)} CPU-ms per request.`,
      );
    }
    const nest = measured(scenario, 'nest-fastify', query);
    if (undici?.gatewayCpuSecPer1k && nest?.gatewayCpuSecPer1k) {
      const extra = (nest.gatewayCpuSecPer1k / undici.gatewayCpuSecPer1k - 1) * 100;
      lines.push(
        `${query}, what our production server adds to the same data source (NestJS, fastify, a log line per ` +
          `request, request ids, limits, demand control): nest-fastify used ${num(nest.gatewayCpuSecPer1k, 3)} vs ` +
          `standalone-undici's ${num(undici.gatewayCpuSecPer1k, 3)} CPU-ms per request (${signedPercent(extra)}).`,
      );
    }
  }
  return lines;
}

/** §B: in how many pairs NestJS measured slower than the same adapter bare, and by how much. */
export function findingsB(scenario: ScenarioResult): string[] {
  const differences = comparePairs(scenario, NEST_PAIRS).flatMap((pair) =>
    pair.gainPercent === undefined ? [] : [pair.gainPercent],
  );
  if (differences.length === 0) return [];
  const slower = differences.filter((difference) => difference < 0).length;
  const low = Math.min(...differences);
  const high = Math.max(...differences);
  return [
    `NestJS vs the same adapter bare: slower in ${slower} of ${differences.length} pairs; the differences ` +
      `range from ${signedPercent(low)} to ${signedPercent(high)}.`,
  ];
}

/** §E: whether each store's p95 grew at every step of the rate. */
export function findingsE(scenario: ScenarioResult): string[] {
  const lines: string[] = [];
  for (const variant of [...new Set(scenario.rows.map((row) => `${row.target} · ${row.variant}`))]) {
    const rows = scenario.rows
      .filter((row) => `${row.target} · ${row.variant}` === variant && row.status === 'ok' && row.latencyMs)
      .sort((a, b) => (a.rate ?? 0) - (b.rate ?? 0));
    if (rows.length < 2) continue;
    const p95 = rows.map((row) => row.latencyMs?.p95 ?? 0);
    const grows = p95.every((value, i) => i === 0 || value > (p95[i - 1] as number));
    lines.push(
      `${variant}: p95 ${p95.map(ms).join(' → ')} ms at ${rows.map((row) => row.rate).join(' / ')} req/s ` +
        `(${grows ? 'grew at every step' : 'did not grow at every step'}).`,
    );
  }
  return lines;
}

/** How many measured rows carry a warning, run-wide. */
export function warningCount(results: BenchResults): string {
  const rows = results.scenarios.flatMap((scenario) => scenario.rows.filter((row) => row.status === 'ok'));
  const warned = rows.filter((row) => row.warnings?.length).length;
  return `${warned} of ${rows.length} measured rows carry a ⚠ warning (see each table's notes).`;
}

function signedPercent(value: number): string {
  return `${value >= 0 ? '+' : '−'}${num(Math.abs(value), 1)}%`;
}
