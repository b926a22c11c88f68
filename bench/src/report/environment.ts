import type { BenchResults } from '../run/results.js';
import { formatNumber, NONE } from './format.js';

export interface Fact {
  readonly label: string;
  readonly value: string;
}

/** Wall-clock length of the run: `14 min 05 s`. */
export function formatDuration(startedAt: string, finishedAt: string): string {
  const sec = Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000);
  if (!Number.isFinite(sec) || sec < 0) return NONE;
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = String(sec % 60).padStart(2, '0');
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : m > 0 ? `${m} min ${s} s` : `${sec % 60} s`;
}

/** The run and the machine it ran on, as label/value pairs (raw strings: renderers escape). */
export function runFacts(results: BenchResults): Fact[] {
  return [
    { label: 'Run', value: results.runId },
    { label: 'Mode', value: results.mode },
    { label: 'Command', value: results.command },
    { label: 'Started', value: results.startedAt },
    { label: 'Duration', value: formatDuration(results.startedAt, results.finishedAt) },
  ];
}

export function environmentFacts(results: BenchResults): Fact[] {
  const env = results.environment;
  const pinning = env.pinning
    ? `gateway CPU ${env.pinning.gateway}, subgraphs CPU ${env.pinning.subgraphs}, load generator CPU ${env.pinning.load}`
    : 'none (taskset missing): processes share every CPU';
  return [
    { label: 'CPU', value: `${env.cpuModel} (${env.cores} cores)` },
    { label: 'Memory', value: `${formatNumber(env.memoryGiB, 1)} GiB` },
    { label: 'OS', value: env.os },
    { label: 'Node', value: env.node },
    {
      label: 'Apollo Router',
      value: env.router ? `${env.router.version} (${env.router.path})` : 'not installed — run pnpm router:install',
    },
    { label: 'CPU pinning', value: pinning },
  ];
}

/** `name version` pairs, sorted by name. */
export function packageFacts(results: BenchResults): Fact[] {
  return Object.entries(results.environment.packages)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, value]) => ({ label, value }));
}
