import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// Every process a test starts is killed with its group on success, failure and timeout: a
// suite that fails on purpose (a rejected Promise.all after a process started, a timeout with
// one running) leaves nothing behind once its vitest ends.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('processes started by failing tests', () => {
  it('are all gone when the run ends', async () => {
    const pids = join(mkdtempSync(join(tmpdir(), 'cleanup-')), 'pids');
    writeFileSync(pids, '');
    const { FORCE_COLOR: _color, ...env } = process.env;
    const run = spawnSync(
      process.execPath,
      [`${ROOT}node_modules/vitest/vitest.mjs`, 'run', '--config', 'tests/runtime/fixtures/leaves-nothing.config.ts'],
      { cwd: ROOT, env: { ...env, NO_COLOR: '1', FIXTURE_PIDS: pids }, encoding: 'utf8', timeout: 60_000 },
    );
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).not.toBe(0);
    expect(output).toContain('failed on purpose');
    const started = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    expect(started, output).toHaveLength(2);
    await expect.poll(() => started.filter(alive), { timeout: 5_000 }).toEqual([]);
  });
});
