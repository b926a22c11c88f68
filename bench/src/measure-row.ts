import { cpuUsage, findBottleneck, type ProcessGroup, snapshot, wallSeconds } from './cpu-groups.js';
import { runLoad } from './load.js';
import type { RowPlan } from './plan.js';
import { readPeakRssMb } from './proc-stats.js';
import type { RowResult } from './results.js';
import { summarize } from './samples.js';
import type { RunningTarget } from './start-target.js';

/**
 * Warm-up, then one measured window with every group's CPU read from /proc just before and
 * after it; throughput counts only successful requests.
 */
export async function measureRow(
  row: RowPlan,
  target: RunningTarget,
  groups: readonly ProcessGroup[],
  cpusIn: (list: string) => number,
): Promise<RowResult> {
  if (row.warmupSec > 0) await runLoad(row, target.url, row.warmupSec);
  const before = snapshot(groups);
  const load = await runLoad(row, target.url, row.durationSec);
  const after = snapshot(groups);

  const base = {
    target: row.target.name,
    variant: row.variant,
    ...(row.load.kind === 'closed' ? { connections: row.load.connections } : { rate: row.load.rate }),
    durationSec: round(load.durationSec, 2),
  };
  const latencyMs = summarize(load.samples);
  if (load.ok === 0 || !latencyMs) {
    return { ...base, status: 'failed', errors: load.errors, message: `no successful request (${load.errors} errors)` };
  }
  const cpu = cpuUsage(groups, before, after);
  const targetCpu = target.group ? cpu[target.group] : undefined;
  const peakRss = target.process ? readPeakRssMb(target.process.pid) : null;
  const bottleneck = findBottleneck(groups, cpu, wallSeconds(before, after), cpusIn);
  return {
    ...base,
    status: 'ok',
    requests: load.ok,
    errors: load.errors,
    rps: round(load.ok / load.durationSec, 1),
    latencyMs,
    cpu,
    ...(targetCpu ? { gatewayCpuSecPer1k: round(targetCpu.cpuSeconds / (load.ok / 1000), 4) } : {}),
    ...(peakRss !== null ? { gatewayPeakRssMb: round(peakRss, 1) } : {}),
    ...(bottleneck ? { bottleneck } : {}),
    ...(load.schedule ? { schedule: load.schedule } : {}),
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
