import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { eventually } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuUsage, findSaturated, type ProcessGroup, snapshot, wallSeconds } from '../src/measure/cpu-groups.js';
import { descendantPids, readCpuSeconds, readPeakRssMb, resetPeakRss } from '../src/measure/proc-stats.js';
import { rowWarnings } from '../src/measure/row-warnings.js';
import type { CpuUsage } from '../src/run/results.js';

const children: ChildProcess[] = [];

function node(code: string, nodeOptions: readonly string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeOptions, '-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return child;
}

/** Resolves once `child` has printed `word` (the child's code says where it got to). */
function said(child: ChildProcess, word: string): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(word)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}) before saying ${word}: ${output}`)));
  });
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('/proc readings', () => {
  it("finds a cluster's workers: every process below the one we started, grandchildren too", async () => {
    // A child that starts a child that starts a child, each printing nothing and waiting.
    const wait = 'setInterval(() => {}, 1000)';
    const inner = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(wait)}], { stdio: 'ignore' }); ${wait}`;
    const outer = node(
      `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(inner)}], { stdio: 'ignore' }); ${wait}`,
    );
    let found: number[] = [];
    await eventually(() => {
      found = descendantPids(outer.pid as number);
      expect(found).toHaveLength(2);
    });
    expect(found).not.toContain(outer.pid);
    for (const pid of found) expect(readCpuSeconds(pid)).not.toBeNull();
    for (const pid of found.reverse()) process.kill(pid, 'SIGKILL');
  });

  it('reads the CPU a busy child burns, and next to none for an idle one', async () => {
    const busy = node("process.stdout.write('spinning\\n'); for (;;) {}");
    const idle = node("process.stdout.write('idle\\n'); setInterval(() => {}, 1000)");
    await Promise.all([said(busy, 'spinning'), said(idle, 'idle')]);
    const groups: ProcessGroup[] = [
      { name: 'busy', pids: [busy.pid as number], cpuList: undefined, capacity: 1 },
      { name: 'idle', pids: [idle.pid as number], cpuList: undefined, capacity: 1 },
    ];
    const before = snapshot(groups);
    // Until the busy loop has burnt 0.3 s of CPU (however long a shared machine takes to give it that).
    let usage = cpuUsage(groups, before, snapshot(groups));
    let after = before;
    await eventually(() => {
      after = snapshot(groups);
      usage = cpuUsage(groups, before, after);
      expect(usage.busy?.cpuSeconds).toBeGreaterThan(0.3);
    }, 20_000);
    // One thread burns at most the wall time; the idle one next to nothing meanwhile.
    expect(usage.busy?.cpuSeconds).toBeLessThanOrEqual(wallSeconds(before, after) + 0.05);
    expect(usage.idle?.cpuSeconds).toBeLessThan(0.1);
  });

  it('reads peak RSS, which stays at its peak after memory is released', async () => {
    const child = node(
      "let b = Buffer.alloc(200 * 1024 * 1024, 1); b = null; gc(); process.stdout.write('freed\\n'); setInterval(() => {}, 1000)",
      ['--expose-gc'],
    );
    await said(child, 'freed');
    expect(readPeakRssMb(child.pid as number)).toBeGreaterThan(200);
  });

  it("resets the peak to the current RSS, so a row's peak is its own", async () => {
    const child = node(
      "let b = Buffer.alloc(200 * 1024 * 1024, 1); b = null; gc(); process.stdout.write('freed\\n'); setInterval(() => {}, 1000)",
      ['--expose-gc'],
    );
    const pid = child.pid as number;
    const rssMb = () => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
    await said(child, 'freed');
    await eventually(() => expect(rssMb()).toBeLessThan(150));
    expect(readPeakRssMb(pid)).toBeGreaterThan(200);
    expect(resetPeakRss(pid)).toBe(true);
    expect(readPeakRssMb(pid)).toBeLessThan(150);
  });

  it('answers null for a process that is gone', async () => {
    const child = node('');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(readCpuSeconds(child.pid as number)).toBeNull();
    expect(readPeakRssMb(child.pid as number)).toBeNull();
  });
});

describe('findSaturated', () => {
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
    expect(findSaturated(groups, usage, 1, () => 1)).toEqual(['gateway']);
  });

  it('names both the target and the CPU set beside it when both are saturated, busiest first', () => {
    // The committed Node 20 run's Router rows: router at 92%, CPU 1 (subgraphs + load) at 98%.
    const groups = [group('router', '0'), group('subgraphs', '1', 1), group('load', '1')];
    const usage = { router: use(0.92, 0.92), subgraphs: use(0.8, 0.8), load: use(0.18, 0.18) };
    expect(findSaturated(groups, usage, 1, () => 1)).toEqual(['subgraphs+load', 'router']);
  });

  it('names groups that together saturate the CPU they share', () => {
    const groups = [group('gateway', '0'), group('subgraphs', '1', 1), group('load', '1')];
    const usage = { gateway: use(0.6, 0.6), subgraphs: use(0.7, 0.7), load: use(0.25, 0.25) };
    expect(findSaturated(groups, usage, 1, () => 1)).toEqual(['subgraphs+load']);
  });

  it('names nothing when every CPU had room', () => {
    const groups = [group('gateway', '0'), group('subgraphs', '1'), group('load', '1')];
    const usage = { gateway: use(0.5, 0.5), subgraphs: use(0.4, 0.4), load: use(0.1, 0.1) };
    expect(findSaturated(groups, usage, 1, () => 1)).toEqual([]);
  });
});

describe('rowWarnings', () => {
  const facts = { targetGroup: 'gateway', saturated: [], ok: 1000, errors: 0 };

  it('warns about every saturated group but the target itself', () => {
    expect(rowWarnings({ ...facts, saturated: ['gateway'] })).toEqual([]);
    expect(rowWarnings({ ...facts, targetGroup: 'router', saturated: ['subgraphs+load', 'router'] })).toEqual([
      'the CPU shared by the subgraphs + the load generator saturated: this row is not a measure of the target alone',
    ]);
    expect(rowWarnings({ ...facts, saturated: ['load'] })).toEqual([
      'the load generator saturated: this row is not a measure of the target alone',
    ]);
  });

  it('warns when more than 1% of sends were late, and about failed requests', () => {
    const schedule = (late: number) => ({ intended: 1000, sent: 1000, late, maxLagMs: 3.25 });
    expect(rowWarnings({ ...facts, schedule: schedule(10) })).toEqual([]);
    expect(rowWarnings({ ...facts, schedule: schedule(11) })).toEqual([
      '1.1% of sends were late (worst 3.3 ms): the tail measures the load generator, not the target',
    ]);
    expect(rowWarnings({ ...facts, ok: 990, errors: 10 })).toEqual(['10 failed requests (1.0%)']);
  });
});
