import type { RowResult, ScenarioResult } from '../run/results.js';
import { GATEWAY_MOUNTS, HIVE_TARGETS, NEST_FASTIFY_CLUSTER, ROUTER } from '../targets/targets.js';
import { ms, num, ratio } from './table.js';

// Issue 11's targets, read from one run: the first mount against the Router on the same row
// (same query, same dedup variant), and against the best Hive Gateway row. Computed, so the
// README says only what the run shows, met or not.

/** The row of `target` and `variant` that measured something (status ok). */
export const okRow = (scenario: ScenarioResult | undefined, target: string, variant: string): RowResult | undefined =>
  scenario?.rows.find((row) => row.target === target && row.variant === variant && row.status === 'ok');

/** Subgraph CPU-ms per request (the `subgraphs` group's CPU-seconds per 1k requests). */
export function subgraphCpuPer1k(row: RowResult | undefined): number | undefined {
  const seconds = row?.cpu?.subgraphs?.cpuSeconds;
  return seconds === undefined || !row?.requests ? undefined : (seconds / row.requests) * 1000;
}

/** One line per variant: CPU per request, p99, peak RSS and throughput as multiples of the Router's. */
export function findingsVersusRouter(scenario: ScenarioResult): string[] {
  const first = GATEWAY_MOUNTS.find((mount) => scenario.rows.some((row) => row.target === mount));
  const cluster = scenario.rows.some((row) => row.target === NEST_FASTIFY_CLUSTER) ? [NEST_FASTIFY_CLUSTER] : [];
  return [...(first ? [first] : []), ...cluster].flatMap((ours) => versus(scenario, ours));
}

function versus(scenario: ScenarioResult, ours: string): string[] {
  const lines: string[] = [];
  for (const variant of [...new Set(scenario.rows.map((row) => row.variant))]) {
    const mine = okRow(scenario, ours, variant);
    const router = okRow(scenario, ROUTER, variant);
    if (!mine || !router) continue;
    const cpu = [mine.gatewayCpuSecPer1k, router.gatewayCpuSecPer1k];
    const p99 = [mine.latencyMs?.p99, router.latencyMs?.p99];
    const rss = [mine.gatewayPeakRssMb, router.gatewayPeakRssMb];
    const met = [
      (cpu[0] ?? Number.POSITIVE_INFINITY) <= (cpu[1] ?? 0) ? 'CPU ≤ 1.0x: met' : 'CPU ≤ 1.0x: not met',
      (p99[0] ?? Number.POSITIVE_INFINITY) <= (p99[1] ?? 0) ? 'p99 ≤ 1.0x: met' : 'p99 ≤ 1.0x: not met',
      (rss[0] ?? Number.POSITIVE_INFINITY) <= 2 * (rss[1] ?? 0) ? 'RSS ≤ 2x: met' : 'RSS ≤ 2x: not met',
    ];
    lines.push(
      `${variant}, ${ours} against the Router: CPU per request ${ratio(cpu[0], cpu[1])} ` +
        `(${num(cpu[0], 3)} vs ${num(cpu[1], 3)} ms), p99 ${ratio(p99[0], p99[1])} (${ms(p99[0] ?? Number.NaN)} vs ` +
        `${ms(p99[1] ?? Number.NaN)} ms), peak RSS ${ratio(rss[0], rss[1])} (${num(rss[0])} vs ${num(rss[1])} MB), ` +
        `throughput ${ratio(mine.rps, router.rps)} (${num(mine.rps)} vs ${num(router.rps)} req/s); ${met.join(', ')}.`,
    );
    const peers = HIVE_TARGETS.flatMap((target) => {
      const row = okRow(scenario, target, variant);
      return row ? [row] : [];
    }).sort((a, b) => (b.rps ?? 0) - (a.rps ?? 0));
    const best = peers[0];
    if (best) {
      lines.push(
        `${variant}, ${ours} against the best Hive Gateway row (${best.target}): throughput ${ratio(mine.rps, best.rps)} ` +
          `(${num(mine.rps)} vs ${num(best.rps)} req/s), CPU per request ${ratio(mine.gatewayCpuSecPer1k, best.gatewayCpuSecPer1k)}.`,
      );
    }
  }
  return lines;
}
