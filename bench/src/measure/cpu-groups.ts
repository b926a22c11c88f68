import type { CpuUsage } from '../run/results.js';
import { readCpuSeconds } from './proc-stats.js';

/** Processes whose CPU is summed and compared with what they may use. */
export interface ProcessGroup {
  /** `gateway` | `router` | `subgraphs` | `load` | `redis` */
  readonly name: string;
  readonly pids: readonly number[];
  /** The taskset list the group is pinned to; undefined when unpinned. */
  readonly cpuList: string | undefined;
  /**
   * CPUs the group can actually keep busy: min(pinned CPUs, its parallelism). A Node process
   * runs JavaScript on one thread, so unpinned on 2 cores it saturates at 1.0 core, not 2.
   */
  readonly capacity: number;
}

export interface CpuSnapshot {
  readonly atNs: bigint;
  readonly seconds: ReadonlyMap<string, number>;
}

export function snapshot(groups: readonly ProcessGroup[]): CpuSnapshot {
  const seconds = new Map<string, number>();
  for (const group of groups) {
    seconds.set(
      group.name,
      group.pids.reduce((sum, pid) => sum + (readCpuSeconds(pid) ?? 0), 0),
    );
  }
  return { atNs: process.hrtime.bigint(), seconds };
}

/** Seconds of wall time between two snapshots. */
export function wallSeconds(before: CpuSnapshot, after: CpuSnapshot): number {
  return Number(after.atNs - before.atNs) / 1e9;
}

/** CPU seconds and share of capacity per group between two snapshots. */
export function cpuUsage(
  groups: readonly ProcessGroup[],
  before: CpuSnapshot,
  after: CpuSnapshot,
): Record<string, CpuUsage> {
  const wallSec = wallSeconds(before, after);
  const usage: Record<string, CpuUsage> = {};
  for (const group of groups) {
    const cpuSeconds = Math.max(0, (after.seconds.get(group.name) ?? 0) - (before.seconds.get(group.name) ?? 0));
    usage[group.name] = { cpuSeconds: round(cpuSeconds, 3), share: round(cpuSeconds / (wallSec * group.capacity), 3) };
  }
  return usage;
}

/** A group, or CPUs shared by several groups, at or above this share is saturated. */
export const SATURATED = 0.9;

/**
 * Every group, and every pinned CPU set that several groups share (`subgraphs+load`: on 2
 * cores the subgraphs and the load generator share CPU 1), that used ≥ 90% of what it may
 * use, busiest first. When the target and the set beside it are both saturated, both are
 * named: the throughput is then not the target's alone. Empty when nothing was saturated.
 */
export function findSaturated(
  groups: readonly ProcessGroup[],
  usage: Readonly<Record<string, CpuUsage>>,
  wallSec: number,
  cpusIn: (list: string) => number,
): string[] {
  const candidates = groups.map((group) => ({ name: group.name, share: usage[group.name]?.share ?? 0 }));
  const shared = new Map<string, ProcessGroup[]>();
  for (const group of groups) {
    if (group.cpuList !== undefined) shared.set(group.cpuList, [...(shared.get(group.cpuList) ?? []), group]);
  }
  for (const [list, members] of shared) {
    if (members.length < 2 || wallSec <= 0) continue;
    const seconds = members.reduce((sum, group) => sum + (usage[group.name]?.cpuSeconds ?? 0), 0);
    candidates.push({ name: members.map((group) => group.name).join('+'), share: seconds / (wallSec * cpusIn(list)) });
  }
  return candidates
    .filter((candidate) => candidate.share >= SATURATED)
    .sort((a, b) => b.share - a.share)
    .map((candidate) => candidate.name);
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
