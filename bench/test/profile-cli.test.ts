import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProfileSummary } from '../src/profile/summarize.js';
import { freeConsecutivePorts } from './ports.js';
import { runScript } from './run-script.js';

let out: string | undefined;
afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

// One tiny run of the compiled profile CLI (`pnpm build` first) against the real gateway and
// subgraphs: the profile is written and summed by part. Never the speed.
describe('node bench/dist/profile-cli.js (tiny run)', () => {
  it('profiles the gateway under load and sums its CPU by part', async () => {
    out = await mkdtemp(join(tmpdir(), 'bench-profile-'));
    const basePort = await freeConsecutivePorts(4);
    const args = ['--query', 'ComplexQuery', '--duration', '2', '--warmup', '0', '--connections', '5'];
    const { code, output } = await runScript('profile-cli.js', [
      ...args,
      '--base-port',
      String(basePort),
      '--out',
      out,
    ]);
    expect(code, output).toBe(0);
    expect(existsSync(join(out, 'profile.cpuprofile'))).toBe(true);
    const run = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as {
      rps: number;
      failed: number;
      summary: ProfileSummary;
    };
    expect(run.failed).toBe(0);
    expect(run.rps).toBeGreaterThan(0);
    // Which parts a 2-second run samples depends on the machine's load (a loaded run saw none of
    // our own code's samples once): the CLI is checked here, the sorting of frames into parts in
    // profile-summary.test.ts with frames it builds.
    expect(run.summary.busyMs).toBeGreaterThan(0);
    expect(run.summary.categories.length).toBeGreaterThan(0);
    const total = run.summary.categories.reduce((sum, part) => sum + part.percent, 0);
    expect(total).toBeGreaterThan(99);
    expect(total).toBeLessThan(101);
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain('| part | self ms | share of busy time |');
  }, 120_000);
});
