// One short soak of the compiled CLI (`pnpm build` first) against the real gateway (full plugin
// stack, metrics on) and the real subgraphs: checks the time series is recorded, never speed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, spawnInGroup } from '@fedgw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import type { SoakResults } from '../src/soak/results.js';
import { freeConsecutivePorts } from './ports.js';

let out: string | undefined;
afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

function runSoakCli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawnInGroup(process.execPath, ['bench/dist/soak-cli.js', ...args], {
      cwd: ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('node bench/dist/soak-cli.js (16 s)', () => {
  it('measures the maximum, soaks at a share of it, and records RSS, lag, heap and requests every interval', async () => {
    out = await mkdtemp(join(tmpdir(), 'bench-soak-'));
    const basePort = await freeConsecutivePorts(4);
    const { code, output } = await runSoakCli([
      ...['--duration', '16', '--interval', '2', '--warmup', '0'],
      // A low share: the test checks the recording on a shared machine, not the gateway's limit.
      ...['--max-rate-sec', '2', '--rate-share', '0.2', '--answer-samples', '5'],
      ...['--base-port', String(basePort), '--out', out],
    ]);
    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8').catch(() => 'null')) as SoakResults;
    expect(results, output).not.toBeNull();
    expect(code, output).toBe(results.verdict.pass ? 0 : 1);

    expect(results.kind).toBe('soak');
    expect(results.target).toBe('nest-fastify');
    expect(results.maxRate.source).toBe('measured');
    expect(results.maxRate.rps).toBeGreaterThan(0);
    expect(results.rate).toBe(Math.max(1, Math.round(results.maxRate.rps * 0.2)));
    expect(results.intervals).toHaveLength(8);
    for (const interval of results.intervals) {
      expect(interval.sent, JSON.stringify(interval)).toBeGreaterThan(0);
      expect(interval.completed).toBeGreaterThan(0);
      expect(interval.rssMb).toBeGreaterThan(10);
      expect(interval.heapUsedMb).toBeGreaterThan(1);
      expect(interval.lagP99Ms).toBeGreaterThan(0);
      expect(interval.lagMeanMs).toBeGreaterThan(0);
      expect(interval.latencyMs?.p99).toBeGreaterThanOrEqual(interval.latencyMs?.p50 ?? Number.NaN);
    }
    // At a fifth of its maximum, the full stack answers everything: a failure here is a real one.
    expect(results.totals.failed, JSON.stringify(results.totals.errors)).toBe(0);
    expect(results.totals.sent).toBe(results.intervals.reduce((sum, i) => sum + i.sent, 0));
    expect(results.totals.sent).toBe(Math.round(results.rate * 16));
    expect(results.verdict.rss).not.toBeNull();
    expect(results.verdict.lag).not.toBeNull();

    const report = await readFile(join(out, 'report.md'), 'utf8');
    expect(report).toContain(`**Verdict: ${results.verdict.pass ? 'pass' : 'fail'}.**`);
    expect(report).toContain('## Time series (every 2 s)');
    const series = report.slice(report.indexOf('## Time series'));
    expect(series.match(/^\| \d+ \|/gm)).toHaveLength(8);
  }, 180_000);
});
