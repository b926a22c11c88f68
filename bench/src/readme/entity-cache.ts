import type { RowResult, ScenarioResult } from '../run/results.js';
import { ROUTER } from '../targets/targets.js';
import { ms, num } from './table.js';

// Issue 34's goal for §G, read from one run: with the memory cache on, our first mount's CPU
// per request and p99 below the Router's (which has no entity cache without a licence).

const MEMORY = 'entity cache memory';

const times = (value: number | undefined, base: number | undefined): string =>
  value === undefined || base === undefined || base === 0 ? '—' : `${num(value / base, 2)}x`;

/** One line per row of ours: CPU per request, p99 and subgraph requests per request against the Router's row. */
export function findingsG(scenario: ScenarioResult): string[] {
  const ok = scenario.rows.filter((row) => row.status === 'ok');
  const router = ok.find((row) => row.target === ROUTER);
  if (!router) return [];
  return ok
    .filter((row) => row.target !== ROUTER && / · entity cache /.test(row.variant))
    .map((row) => line(row, router));
}

function line(row: RowResult, router: RowResult): string {
  const cpu = [row.gatewayCpuSecPer1k, router.gatewayCpuSecPer1k] as const;
  const p99 = [row.latencyMs?.p99, router.latencyMs?.p99] as const;
  const below = (mine: number | undefined, theirs: number | undefined) =>
    mine !== undefined && theirs !== undefined && mine < theirs;
  const goal = row.variant.endsWith(MEMORY)
    ? `; goal (CPU and p99 below the Router's): ${below(cpu[0], cpu[1]) && below(p99[0], p99[1]) ? 'met' : 'not met'}`
    : '';
  return (
    `${row.variant}, ${row.target} against the Router (no cache): CPU per request ${times(cpu[0], cpu[1])} ` +
    `(${num(cpu[0], 3)} vs ${num(cpu[1], 3)} ms), p99 ${times(p99[0], p99[1])} (${ms(p99[0] ?? Number.NaN)} vs ` +
    `${ms(p99[1] ?? Number.NaN)} ms), subgraph requests per request ${num(row.subgraphRequestsPerRequest, 2)} vs ` +
    `${num(router.subgraphRequestsPerRequest, 2)}${goal}.`
  );
}
