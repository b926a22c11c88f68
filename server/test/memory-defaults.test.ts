import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startGateway } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import {
  envDefaultsToApply,
  memoryDefaultsToApply,
  operatorFlags,
  RUNTIME_MEMORY_DEFAULTS,
  STARTUP_ENV_DEFAULTS,
  STARTUP_MEMORY_DEFAULTS,
} from '../src/memory-defaults.js';

describe('the V8 memory defaults', () => {
  it('chooses the measured defaults when the operator names none of them', () => {
    expect(memoryDefaultsToApply(RUNTIME_MEMORY_DEFAULTS, [])).toEqual(['--heap-growing-percent=100']);
    expect(memoryDefaultsToApply(STARTUP_MEMORY_DEFAULTS, ['--max-old-space-size=512'])).toEqual([
      '--max-semi-space-size=32',
    ]);
  });

  it("leaves a flag the operator set alone, in any of V8's spellings", () => {
    for (const execArgv of [
      ['--heap-growing-percent=0'],
      ['--heap_growing_percent=50'],
      ['--heap-growing-percent', '25'],
    ]) {
      expect(memoryDefaultsToApply(RUNTIME_MEMORY_DEFAULTS, execArgv)).toEqual([]);
    }
  });

  it('counts NODE_OPTIONS as the operator’s too (Node does not list it in execArgv)', () => {
    const flags = operatorFlags(['--enable-source-maps'], ' --max-semi-space-size=16  --import=./guard.mjs ');
    expect(memoryDefaultsToApply(STARTUP_MEMORY_DEFAULTS, flags)).toEqual([]);
    expect(memoryDefaultsToApply(RUNTIME_MEMORY_DEFAULTS, flags)).toEqual([...RUNTIME_MEMORY_DEFAULTS]);
  });

  it("sets glibc's arena cap unless the operator's environment names it, even empty", () => {
    expect(envDefaultsToApply(STARTUP_ENV_DEFAULTS, { PATH: '/bin' })).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(envDefaultsToApply(STARTUP_ENV_DEFAULTS, { MALLOC_ARENA_MAX: '8' })).toEqual({});
    expect(envDefaultsToApply(STARTUP_ENV_DEFAULTS, { MALLOC_ARENA_MAX: '' })).toEqual({});
  });

  it('every default is a flag this V8 knows (an unknown one would only print an error)', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    for (const flag of [...RUNTIME_MEMORY_DEFAULTS, ...STARTUP_MEMORY_DEFAULTS]) {
      expect(options).toContain(`  ${flag.split('=')[0]} (`);
    }
  });
});

/** The command line the kernel holds for a process now (after any execve). */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** The environment the process was (re)executed with: what the C library read at its start. */
function startEnvironment(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
}

describe.runIf(process.platform === 'linux')('the entry point relaunches itself with the startup defaults', () => {
  it('same PID, serving, with the young-generation cap on its command line', async () => {
    const gateway = await startGateway('fastify', {});
    try {
      const pid = gateway.child.pid as number;
      const argv = commandLine(pid);
      expect(argv).toContain('--max-semi-space-size=32');
      expect(argv.at(-1)).toMatch(/server\/dist\/main\.js$/);
      expect(startEnvironment(pid)).toContain('MALLOC_ARENA_MAX=2');
      expect((await fetch(`${gateway.origin}/health`)).status).toBe(200);
      expect(gateway.logLines().find((line) => line.msg === 'gateway listening')).toMatchObject({
        v8MemoryFlags: ['--max-semi-space-size=32', '--heap-growing-percent=100'],
        mallocArenaMax: '2',
      });
    } finally {
      await gateway.stop();
    }
  });

  it("keeps the operator's own size from NODE_OPTIONS and arena cap from the environment", async () => {
    const gateway = await startGateway('express', {
      NODE_OPTIONS: '--max-semi-space-size=16',
      MALLOC_ARENA_MAX: '4',
    });
    try {
      const pid = gateway.child.pid as number;
      expect(commandLine(pid).some((arg) => arg.startsWith('--max-semi-space-size'))).toBe(false);
      expect(startEnvironment(pid)).toContain('MALLOC_ARENA_MAX=4');
      expect(gateway.logLines().find((line) => line.msg === 'gateway listening')).toMatchObject({
        v8MemoryFlags: ['--max-semi-space-size=16', '--heap-growing-percent=100'],
      });
    } finally {
      await gateway.stop();
    }
  });

  it("relaunches for the arena cap alone when the operator named the semi-space (the Deployment's command line)", async () => {
    const gateway = await startGateway('fastify', { NODE_OPTIONS: '--max-semi-space-size=16' });
    try {
      const pid = gateway.child.pid as number;
      expect(commandLine(pid).some((arg) => arg.startsWith('--max-semi-space-size'))).toBe(false);
      expect(startEnvironment(pid)).toContain('MALLOC_ARENA_MAX=2');
      expect((await fetch(`${gateway.origin}/health`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});
