import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../src/results.js';
import { freeConsecutivePorts } from './ports.js';

let out: string | undefined;

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bench/dist/cli.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

// The one end-to-end run of the compiled CLI (built by `pnpm build`): tiny windows, checks the
// harness (answers checked, rows written, report produced), never the speed.
describe('node bench/dist/cli.js --quick (tiny run)', () => {
  it('measures a gateway, marks a missing Router not-installed, and writes the report', async () => {
    out = await mkdtemp(join(tmpdir(), 'bench-cli-'));
    const basePort = await freeConsecutivePorts(4);
    const { code, output } = await runCli(
      [
        '--quick',
        '--duration',
        '1',
        '--warmup',
        '0',
        '--connections',
        '5',
        '--targets',
        'fastify,apollo-router',
        '--answer-samples',
        '10',
        '--base-port',
        String(basePort),
        '--out',
        out,
      ],
      // A missing path means "no Router" even where one is installed.
      { APOLLO_ROUTER_BIN: join(out, 'no-such-router') },
    );
    expect(code, output).toBe(0);

    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as BenchResults;
    expect(results.mode).toBe('quick');
    expect(results.environment.router).toBeNull();
    const scenarioA = results.scenarios.find((s) => s.id === 'A');
    expect(results.scenarios.map((s) => s.id)).toEqual(['A']);

    const gatewayRows = scenarioA?.rows.filter((row) => row.target === 'fastify') ?? [];
    expect(gatewayRows.map((row) => row.variant)).toEqual(['GetUserWithProducts', 'ComplexQuery']);
    for (const row of gatewayRows) {
      expect(row.status, row.message).toBe('ok');
      expect(row.rps).toBeGreaterThan(0);
      expect(row.latencyMs?.p50).toBeGreaterThan(0);
      expect(row.cpu?.gateway?.cpuSeconds).toBeGreaterThan(0);
      expect(row.gatewayPeakRssMb).toBeGreaterThan(0);
    }

    const routerRows = scenarioA?.rows.filter((row) => row.target === 'apollo-router') ?? [];
    expect(routerRows).toHaveLength(2);
    for (const row of routerRows) {
      expect(row).toMatchObject({ status: 'not-installed', message: 'not installed — run pnpm router:install' });
      expect(row.rps).toBeUndefined();
    }
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  }, 120_000);
});
