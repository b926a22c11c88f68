import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP, parseOptions } from '../src/run/options.js';
import type { BenchResults } from '../src/run/results.js';
import { createSetups } from '../src/targets/setups.js';
import { CREDENTIAL_SETUPS, EXTERNAL_SETUPS, OBSERVED_SETUPS } from '../src/targets/targets.js';
import { freeConsecutivePorts } from './ports.js';
import { runScript } from './run-script.js';

let out: string | undefined;

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

// The one end-to-end run of the compiled CLI (built by `pnpm build`): tiny windows, checks the
// harness (answers checked, rows written, report produced), never the speed.
describe('node bench/dist/cli.js --quick (tiny run)', () => {
  it('measures a gateway, marks a missing Router not-installed, and writes the report', async () => {
    out = await mkdtemp(join(tmpdir(), 'bench-cli-'));
    const basePort = await freeConsecutivePorts(4);
    const { code, output } = await runScript(
      'cli.js',
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
    expect(gatewayRows.map((row) => row.variant)).toEqual([
      'GetUserWithProducts',
      'ComplexQuery',
      'GetUserWithProducts · apollo executor',
      'ComplexQuery · apollo executor',
      'GetUserWithProducts · apollo planner',
      'ComplexQuery · apollo planner',
      'GetUserWithProducts · compressed',
      'ComplexQuery · compressed',
      'GetUserWithProducts · dedup',
      'ComplexQuery · dedup',
    ]);
    for (const row of gatewayRows) {
      expect(row.status, row.message).toBe('ok');
      expect(row.rps).toBeGreaterThan(0);
      expect(row.latencyMs?.p50).toBeGreaterThan(0);
      expect(row.cpu?.gateway?.cpuSeconds).toBeGreaterThan(0);
      expect(row.gatewayPeakRssMb).toBeGreaterThan(0);
    }

    const routerRows = scenarioA?.rows.filter((row) => row.target === 'apollo-router') ?? [];
    expect(routerRows).toHaveLength(4); // with and without deduplicate_query
    for (const row of routerRows) {
      expect(row).toMatchObject({ status: 'not-installed', message: 'not installed — run pnpm router:install' });
      expect(row.rps).toBeUndefined();
    }
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  }, 120_000);
});

/** parseOptions: what cli.ts calls on process.argv.slice(2), exit code 2 when it throws. */
describe('options', () => {
  const parsed = (argv: string[]) => {
    const options = parseOptions(argv);
    if (options === 'help') throw new Error('unexpected --help');
    return options;
  };

  it('defaults quick mode to §A on nest-fastify and the Router', () => {
    const options = parsed(['--quick']);
    expect(options).toMatchObject({ mode: 'quick', scenarios: ['A'], basePort: 4100, pin: true });
    expect(options.targets.map((t) => t.name)).toEqual(['nest-fastify', 'apollo-router']);
    expect(options.nodeFlags).toEqual([]);
  });

  it('passes --node-flags to our mounts as separate flags, and refuses a word that is not a flag', () => {
    expect(parsed(['--node-flags=--max-semi-space-size=64  --cpu-prof']).nodeFlags).toEqual([
      '--max-semi-space-size=64',
      '--cpu-prof',
    ]);
    expect(() => parsed(['--node-flags=--cpu-prof rm'])).toThrow('--node-flags: not a Node flag: rm');
  });

  it('measures only external targets when no --targets is given; an external runs setup none by default', () => {
    const options = parsed(['--external', 'compose=http://gateway:4000/graphql', '--rate', '50,150']);
    expect(options.targets).toEqual([
      { name: 'compose', kind: 'external', url: 'http://gateway:4000/graphql', setup: 'none' },
    ]);
    expect(options.rates).toEqual([50, 150]);
  });

  it('reads the setup an external declares with name@setup=url, the URL kept whole', () => {
    const options = parsed([
      '--targets',
      'fastify',
      '--external',
      'gw-redis@rate-limit-redis=http://gw:4000/graphql',
      '--external',
      'gw@none=http://user:p@ss@gw:4001/graphql?a=b',
    ]);
    expect(options.targets).toEqual([
      { name: 'fastify', kind: 'mount' },
      { name: 'gw-redis', kind: 'external', url: 'http://gw:4000/graphql', setup: 'rate-limit-redis' },
      { name: 'gw', kind: 'external', url: 'http://user:p@ss@gw:4001/graphql?a=b', setup: 'none' },
    ]);
  });

  it('refuses, naming the option, the setups whose credentials an external cannot know', () => {
    for (const setup of CREDENTIAL_SETUPS) {
      expect(() => parseOptions(['--external', `gw@${setup}=http://gw/graphql`])).toThrow(
        new RegExp(`^--external gw@${setup.replaceAll('+', '\\+')}: this setup sends credentials`),
      );
    }
  });

  it('splits every setup into one an external may declare or one it may not: those that send credentials', async () => {
    const setups = await createSetups();
    expect([...EXTERNAL_SETUPS, ...CREDENTIAL_SETUPS, ...OBSERVED_SETUPS].sort()).toEqual(Object.keys(setups).sort());
    for (const key of CREDENTIAL_SETUPS) {
      const signedIn = setups[key].workload?.samples().some((sample) => sample.request.headers.authorization);
      expect(Object.keys(setups[key].headers).length > 0 || signedIn, key).toBe(true);
    }
    // Accept-Encoding is no credential (the `compression` setup asks for compressed answers).
    for (const key of EXTERNAL_SETUPS) {
      expect(
        Object.keys(setups[key].headers).filter((name) => name !== 'accept-encoding'),
        key,
      ).toEqual([]);
    }
    for (const key of OBSERVED_SETUPS) {
      expect(setups[key].metrics === true || setups[key].traceCheck !== undefined, key).toBe(true);
      expect(() => parseOptions(['--external', `gw@${key}=http://gw/graphql`])).toThrow(/metrics port or an OTLP sink/);
    }
  });

  it('rejects unknown targets, scenarios, setups, duplicate or built-in external names and bad numbers by name', () => {
    expect(() => parseOptions(['--targets', 'koa'])).toThrow(/unknown target koa/);
    expect(() => parseOptions(['--scenarios', 'I'])).toThrow(
      /--scenarios: unknown scenario "I" \(A, B, C, D, E, F, G, H\)/,
    );
    expect(() => parseOptions(['--duration', 'soon'])).toThrow(/--duration/);
    expect(() => parseOptions(['--external', 'nope'])).toThrow(/--external/);
    expect(() => parseOptions(['--external', 'gw@=http://gw/graphql'])).toThrow(/--external gw@: unknown setup/);
    expect(() => parseOptions(['--external', 'gw@turbo=http://gw/graphql'])).toThrow(/--external gw@turbo: unknown/);
    expect(() => parseOptions(['--external', 'a@none@none=http://gw/graphql'])).toThrow(/--external expects/);
    expect(() => parseOptions(['--external', 'nest-fastify=http://gw/graphql'])).toThrow(/built-in target/);
    expect(() =>
      parseOptions(['--external', 'gw=http://a/graphql', '--external', 'gw@rate-limit=http://b/graphql']),
    ).toThrow(/"gw" is given twice/);
  });

  it('documents the external syntax and every setup an external may declare in --help', () => {
    expect(HELP).toContain('--external name@setup=url');
    for (const setup of EXTERNAL_SETUPS) expect(HELP).toContain(setup);
  });
});
