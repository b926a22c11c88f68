import { describe, expect, it } from 'vitest';
import { parseOptions } from '../src/options.js';
import { NOT_INSTALLED, type PlanContext } from '../src/plan.js';
import { addDeltas } from '../src/scenarios/c-extensibility.js';
import { addKeptPercent } from '../src/scenarios/d-plugin-stacking.js';
import { planScenarios, SCENARIO_IDS } from '../src/scenarios/index.js';
import { createSetups } from '../src/setups.js';
import { resolveTargets } from '../src/targets.js';

async function context(targets: string[], router: boolean): Promise<PlanContext> {
  return {
    targets: resolveTargets(targets, []),
    setups: await createSetups(),
    router: router ? { path: '/bin/router', version: '2.17.0' } : null,
    redisAvailable: true,
    closedSec: 30,
    fixedSec: 60,
    warmupSec: 5,
    connections: 100,
    adapterConnections: [50, 200, 500],
    constantRate: 100,
    rates: [100, 300, 500],
  };
}

describe('scenario plans', () => {
  it('runs §A on every target with both seed queries', async () => {
    const [a] = planScenarios(['A'], await context(['nest-fastify', 'standalone', 'apollo-router'], true));
    expect(a?.rows.map((row) => `${row.target.name} ${row.variant}`)).toEqual([
      'nest-fastify GetUserWithProducts',
      'nest-fastify ComplexQuery',
      'standalone GetUserWithProducts',
      'standalone ComplexQuery',
      'apollo-router GetUserWithProducts',
      'apollo-router ComplexQuery',
    ]);
  });

  it('marks Router rows not installed when there is no binary, and JWT as licensed', async () => {
    const plans = planScenarios(['A', 'C'], await context(['nest-fastify', 'apollo-router'], false));
    const routerRows = plans.flatMap((plan) => plan.rows).filter((row) => row.target.name === 'apollo-router');
    expect(routerRows.length).toBe(6);
    const jwt = routerRows.find((row) => row.variant === 'JWT client awareness');
    expect(jwt?.skip).toEqual({ status: 'skipped', message: 'needs GraphOS-licensed JWT auth' });
    for (const row of routerRows.filter((r) => r !== jwt)) {
      expect(row.skip).toEqual({ status: 'not-installed', message: NOT_INSTALLED });
    }
  });

  it('plans every section in full mode, plugins on the first mount only', async () => {
    const plans = planScenarios(SCENARIO_IDS, await context(['nest-fastify', 'fastify', 'apollo-router'], true));
    const count = (id: string) => plans.find((plan) => plan.id === id)?.rows.length;
    expect(count('B')).toBe(2 * 2 * 3);
    expect(count('C')).toBe(4 + 4);
    expect(count('D')).toBe(5);
    expect(count('E')).toBe(2 * 3);
    const plugins = plans.filter((plan) => 'CDE'.includes(plan.id)).flatMap((plan) => plan.rows);
    expect(new Set(plugins.map((row) => row.target.name))).toEqual(new Set(['nest-fastify', 'apollo-router']));
  });

  it('adds §C deltas and §D kept percentages against the same target', () => {
    const ok = { status: 'ok' as const, target: 't' };
    const latency = (p50: number, p99: number) => ({ mean: p50, p50, p90: p99, p95: p99, p99, max: p99 });
    const [, header] = addDeltas([
      { ...ok, variant: 'baseline', latencyMs: latency(1, 2) },
      { ...ok, variant: 'static subgraph header', latencyMs: latency(1.25, 2.5) },
    ]);
    expect(header?.deltaVsBaselineMs).toEqual({ p50: 0.25, p99: 0.5 });
    const [none, limited] = addKeptPercent([
      { ...ok, variant: 'none', rps: 1000 },
      { ...ok, variant: 'rate-limit', rps: 650 },
    ]);
    expect(none?.keptPercent).toBe(100);
    expect(limited?.keptPercent).toBe(65);
  });
});

describe('options', () => {
  it('defaults quick mode to §A on nest-fastify and the Router', () => {
    const options = parseOptions(['--quick']);
    expect(options).toMatchObject({ mode: 'quick', scenarios: ['A'], basePort: 4100, pin: true });
    if (options === 'help') return;
    expect(options.targets.map((t) => t.name)).toEqual(['nest-fastify', 'apollo-router']);
  });

  it('measures only external targets when no --targets is given', () => {
    const options = parseOptions(['--external', 'compose=http://gateway:4000/graphql', '--rate', '50,150']);
    if (options === 'help') throw new Error('unexpected');
    expect(options.targets).toEqual([{ name: 'compose', kind: 'external', url: 'http://gateway:4000/graphql' }]);
    expect(options.rates).toEqual([50, 150]);
  });

  it('rejects unknown targets, scenarios and bad numbers by name', () => {
    expect(() => parseOptions(['--targets', 'koa'])).toThrow(/unknown target koa/);
    expect(() => parseOptions(['--scenarios', 'F'])).toThrow(/--scenarios/);
    expect(() => parseOptions(['--duration', 'soon'])).toThrow(/--duration/);
    expect(() => parseOptions(['--external', 'nope'])).toThrow(/--external/);
  });
});
