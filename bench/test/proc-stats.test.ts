import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuUsage, findBottleneck, type ProcessGroup, snapshot, wallSeconds } from '../src/cpu-groups.js';
import { readCpuSeconds, readPeakRssMb } from '../src/proc-stats.js';
import type { CpuUsage } from '../src/results.js';

const children: ChildProcess[] = [];

function node(code: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  children.push(child);
  return child;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('/proc readings', () => {
  it('reads the CPU a busy child burns, and next to none for an idle one', async () => {
    const busy = node('for (;;) {}');
    const idle = node('setInterval(() => {}, 1000)');
    await sleep(300);
    const groups: ProcessGroup[] = [
      { name: 'busy', pids: [busy.pid as number], cpuList: undefined, capacity: 1 },
      { name: 'idle', pids: [idle.pid as number], cpuList: undefined, capacity: 1 },
    ];
    const before = snapshot(groups);
    await sleep(1000);
    const after = snapshot(groups);
    const usage = cpuUsage(groups, before, after);
    // A shared, noisy machine may not give the busy loop a whole core, but it gets most of one.
    expect(usage.busy?.cpuSeconds).toBeGreaterThan(0.3);
    expect(usage.busy?.cpuSeconds).toBeLessThan(1.3);
    expect(usage.idle?.cpuSeconds).toBeLessThan(0.1);
    expect(wallSeconds(before, after)).toBeGreaterThanOrEqual(1);
  });

  it('reads peak RSS, which stays at its peak after memory is released', async () => {
    const child = node(
      'let b = Buffer.alloc(200 * 1024 * 1024, 1); setTimeout(() => { b = null; globalThis.gc?.(); }, 200); setInterval(() => {}, 1000)',
    );
    await sleep(800);
    expect(readPeakRssMb(child.pid as number)).toBeGreaterThan(200);
  });

  it('answers null for a process that is gone', async () => {
    const child = node('');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(readCpuSeconds(child.pid as number)).toBeNull();
    expect(readPeakRssMb(child.pid as number)).toBeNull();
  });
});

describe('bottleneck', () => {
  const group = (name: string, cpuList: string | undefined, capacity = 1): ProcessGroup => ({
    name,
    pids: [],
    cpuList,
    capacity,
  });
  const use = (cpuSeconds: number, share: number): CpuUsage => ({ cpuSeconds, share });

  it('names a saturated group', () => {
    const groups = [group('gateway', '0'), group('subgraphs', '1', 1), group('load', '1')];
    const usage = { gateway: use(0.95, 0.95), subgraphs: use(0.3, 0.3), load: use(0.1, 0.1) };
    expect(findBottleneck(groups, usage, 1, () => 1)).toBe('gateway');
  });

  it('names the CPU set shared by several groups when it is busier than the target', () => {
    const groups = [group('gateway', '0'), group('subgraphs', '1', 1), group('load', '1')];
    const usage = { gateway: use(0.92, 0.92), subgraphs: use(0.8, 0.8), load: use(0.18, 0.18) };
    expect(findBottleneck(groups, usage, 1, () => 1)).toBe('subgraphs+load');
  });

  it('names groups that together saturate the CPU they share', () => {
    const groups = [group('gateway', '0'), group('subgraphs', '1', 1), group('load', '1')];
    const usage = { gateway: use(0.6, 0.6), subgraphs: use(0.7, 0.7), load: use(0.25, 0.25) };
    expect(findBottleneck(groups, usage, 1, () => 1)).toBe('subgraphs+load');
  });

  it('names nothing when every CPU had room', () => {
    const groups = [group('gateway', '0'), group('subgraphs', '1'), group('load', '1')];
    const usage = { gateway: use(0.5, 0.5), subgraphs: use(0.4, 0.4), load: use(0.1, 0.1) };
    expect(findBottleneck(groups, usage, 1, () => 1)).toBeUndefined();
  });
});
