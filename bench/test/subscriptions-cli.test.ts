// One tiny run of the compiled subscription bench (`pnpm build` first) against the real gateway
// and subgraphs: every delivery arrives and is timed, and the Router has its row. Never speed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, spawnInGroup } from '@fedgw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import type { SubscriptionResults } from '../src/subscriptions/results.js';
import { ROUTER_NOT_MEASURED } from '../src/subscriptions/target-setup.js';
import { freeConsecutivePorts } from './ports.js';

let out: string | undefined;
afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

function runCli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawnInGroup(process.execPath, ['bench/dist/subscriptions-cli.js', ...args], {
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

describe('node bench/dist/subscriptions-cli.js (a few seconds)', () => {
  it('delivers every event to every subscriber through the gateway (WebSocket and multipart clients), and says why the Router has no numbers', async () => {
    out = await mkdtemp(join(tmpdir(), 'bench-subscriptions-'));
    const basePort = await freeConsecutivePorts(4);
    const { code, output } = await runCli([
      ...['--targets', 'fastify,nest-fastify+multipart,apollo-router', '--subscribers', '1,3'],
      ...['--events', '10', '--warmup-events', '2', '--no-pin'],
      ...['--base-port', String(basePort), '--out', out],
    ]);
    expect(code, output).toBe(0);
    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as SubscriptionResults;
    expect(results.kind).toBe('subscriptions');
    const [one, three, multipartOne, multipartThree, router] = results.rows;
    expect([multipartOne?.target, multipartThree?.target]).toEqual([
      'nest-fastify+multipart',
      'nest-fastify+multipart',
    ]);
    for (const row of [one, three, multipartOne, multipartThree]) {
      expect(row?.status, JSON.stringify(row)).toBe('ok');
      expect(row?.events).toBe(10);
      expect(row?.delivered).toBe(10 * (row?.subscribers ?? 0));
      expect(row?.missing).toBe(0);
      expect(row?.wrongEvents).toBe(0);
      expect(row?.latencyMs?.p99).toBeGreaterThanOrEqual(row?.latencyMs?.p50 ?? Number.NaN);
      expect(row?.gatewayCpuSec).toBeGreaterThanOrEqual(0);
    }
    expect(router).toMatchObject({ target: 'apollo-router', status: 'not-measured', message: ROUTER_NOT_MEASURED });
    const report = await readFile(join(out, 'report.md'), 'utf8');
    expect(report).toContain(`| apollo-router | all | ${ROUTER_NOT_MEASURED} |`);
  }, 120_000);
});
