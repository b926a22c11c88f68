import { runLoad } from '../load/load.js';
import type { LiveTick } from '../load/load-result.js';
import { runOpenLoop } from '../load/open-loop.js';
import { requestBody } from '../load/queries.js';
import type { RowPlan } from '../run/plan.js';
import type { CompetingStream, LatencySummary, RowResult } from '../run/results.js';
import type { RunningTarget } from '../targets/start-target.js';
import { cpuUsage, findSaturated, type ProcessGroup, snapshot, wallSeconds } from './cpu-groups.js';
import { readPeakRssMb, resetPeakRss } from './proc-stats.js';
import { rowWarnings } from './row-warnings.js';
import { type Samples, summarize } from './samples.js';

/**
 * Warm-up, then one measured window with every group's CPU read from /proc just before and
 * after it, and the target's peak RSS reset at its start; throughput counts only successful
 * requests.
 */
export async function measureRow(
  row: RowPlan,
  target: RunningTarget,
  groups: readonly ProcessGroup[],
  cpusIn: (list: string) => number,
  onTick?: LiveTick,
  subgraphRequests?: () => Promise<Readonly<Record<string, number>>>,
): Promise<RowResult> {
  const competing = startCompeting(row, target.url);
  if (row.warmupSec > 0) await runLoad(row, target.url, row.warmupSec, undefined, 'warmup');
  // A cluster's peak is the sum of its processes' peaks (each may peak at another moment: an upper bound).
  const pids = target.pids();
  const rowPeak = pids.length > 0 && pids.every((pid) => resetPeakRss(pid));
  const subgraphsBefore = await subgraphRequests?.();
  const before = snapshot(groups);
  const gcMark = target.gcTrace?.mark();
  const load = await runLoad(row, target.url, row.durationSec, onTick);
  const after = snapshot(groups);
  const subgraphsAfter = subgraphsBefore && (await subgraphRequests?.());
  const competed = await competing;
  const gc = target.gcTrace && gcMark ? target.gcTrace.summarize(gcMark, load.ok) : null;

  const base = {
    target: row.target.name,
    variant: row.variant,
    ...(row.load.kind === 'closed' ? { connections: row.load.connections } : { rate: row.load.rate }),
    durationSec: round(load.durationSec, 2),
  };
  const latencyMs = summarize(load.samples);
  if (load.ok === 0 || !latencyMs) {
    return {
      ...base,
      status: 'failed',
      errors: load.errors,
      message: `no successful request (${load.errors} errors)`,
      ...(competed ? { competing: competed } : {}),
    };
  }
  const cpu = cpuUsage(groups, before, after);
  const targetCpu = target.group ? cpu[target.group] : undefined;
  const peaks = pids.map((pid) => readPeakRssMb(pid));
  // Unknown when any process's peak is (or there is no process: an external target).
  const peakRss = peaks.length === 0 || peaks.includes(null) ? null : sum(peaks as number[]);
  const saturated = findSaturated(groups, cpu, wallSeconds(before, after), cpusIn);
  const warnings = rowWarnings({
    targetGroup: target.group,
    saturated,
    ok: load.ok,
    errors: load.errors,
    ...(load.schedule ? { schedule: load.schedule } : {}),
  });
  return {
    ...base,
    status: 'ok',
    requests: load.ok,
    errors: load.errors,
    rps: round(load.ok / load.durationSec, 1),
    latencyMs,
    ...firstPart(load.firstPartSamples),
    cpu,
    ...(targetCpu ? { gatewayCpuSecPer1k: round(targetCpu.cpuSeconds / (load.ok / 1000), 4) } : {}),
    ...(subgraphsBefore && subgraphsAfter ? perRequest(subgraphsBefore, subgraphsAfter, load.ok) : {}),
    ...(peakRss !== null ? { gatewayPeakRssMb: round(peakRss, 1), peakRssScope: rowPeak ? 'row' : 'process' } : {}),
    ...(gc ? { gc } : {}),
    saturated,
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(load.schedule ? { schedule: load.schedule } : {}),
    ...(load.failedAtMs !== undefined ? { failedAtMs: load.failedAtMs } : {}),
    ...(competed ? { competing: competed } : {}),
  };
}

/**
 * §H: the setup's competing client, open loop at its own rate, from before the warm-up to just
 * past the measured window (a second more, so the window never runs without it).
 */
async function startCompeting(row: RowPlan, url: string): Promise<CompetingStream | undefined> {
  const competing = row.setup.competing;
  if (!competing) return undefined;
  const durationSec = row.warmupSec + row.durationSec + 1;
  const load = await runOpenLoop({
    url,
    rate: competing.rate,
    durationSec,
    body: () => requestBody(row.query),
    headers: competing.headers,
    // Refusals come back at once; a request the target never answers fails after this.
    timeoutMs: 10_000,
  });
  return {
    label: competing.label,
    rate: competing.rate,
    durationSec: round(load.durationSec, 2),
    ok: load.ok,
    errors: load.errors,
    okRps: round(load.ok / load.durationSec, 1),
  };
}

/** Subgraph requests the window caused, per successful client request: in all and per subgraph. */
function perRequest(
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
  ok: number,
): Pick<RowResult, 'subgraphRequestsPerRequest' | 'subgraphRequestsBySubgraph'> {
  const bySubgraph = Object.fromEntries(
    Object.entries(after).map(([name, total]) => [name, round((total - (before[name] ?? 0)) / ok, 3)]),
  );
  const all = Object.entries(after).reduce((sum, [name, total]) => sum + total - (before[name] ?? 0), 0);
  return { subgraphRequestsPerRequest: round(all / ok, 3), subgraphRequestsBySubgraph: bySubgraph };
}

function firstPart(samples: Samples | undefined): { firstPartMs?: LatencySummary } {
  const summary = samples ? summarize(samples) : null;
  return summary ? { firstPartMs: summary } : {};
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
