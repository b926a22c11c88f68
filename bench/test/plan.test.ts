import { describe, expect, it } from 'vitest';
import { DASHBOARD } from '../src/load/queries.js';
import { parseOptions } from '../src/run/options.js';
import { NOT_INSTALLED, type PlanContext, type RowPlan, type ScenarioPlan, skipFor } from '../src/run/plan.js';
import { addDeltas } from '../src/scenarios/c-extensibility.js';
import { addKeptPercent } from '../src/scenarios/d-plugin-stacking.js';
import { planScenarios, SCENARIO_IDS } from '../src/scenarios/index.js';
import { createSetups } from '../src/targets/setups.js';
import { parseExternal, resolveTargets } from '../src/targets/targets.js';

async function context(
  targets: string[],
  router: boolean,
  { externals = [], redisAvailable = true }: { externals?: string[]; redisAvailable?: boolean } = {},
): Promise<PlanContext> {
  return {
    targets: resolveTargets(targets, externals.map(parseExternal)),
    setups: await createSetups(),
    router: router ? { path: '/bin/router', version: '2.17.0' } : null,
    redisAvailable,
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
  it('runs §A on every target with both seed queries, then the first mount and the Router with dedup', async () => {
    const [a] = planScenarios(
      ['A'],
      await context(['nest-fastify', 'standalone', 'apollo-router', 'fastify', 'hive-gateway'], true),
    );
    expect(a?.rows.map((row) => `${row.target.name} ${row.variant} (${row.setup.key})`)).toEqual([
      'nest-fastify GetUserWithProducts (none)',
      'nest-fastify ComplexQuery (none)',
      'standalone GetUserWithProducts (none)',
      'standalone ComplexQuery (none)',
      'apollo-router GetUserWithProducts (none)',
      'apollo-router ComplexQuery (none)',
      'fastify GetUserWithProducts (none)',
      'fastify ComplexQuery (none)',
      'hive-gateway GetUserWithProducts (none)',
      'hive-gateway ComplexQuery (none)',
      'nest-fastify GetUserWithProducts · apollo executor (apollo-executor)',
      'nest-fastify ComplexQuery · apollo executor (apollo-executor)',
      'nest-fastify GetUserWithProducts · apollo planner (apollo-planner)',
      'nest-fastify ComplexQuery · apollo planner (apollo-planner)',
      'nest-fastify GetUserWithProducts · compressed (compression)',
      'nest-fastify ComplexQuery · compressed (compression)',
      'nest-fastify GetUserWithProducts · dedup (dedup)',
      'nest-fastify ComplexQuery · dedup (dedup)',
      'apollo-router GetUserWithProducts · dedup (dedup)',
      'apollo-router ComplexQuery · dedup (dedup)',
    ]);
  });

  it('runs §F on every target as it ships, then each dedup variant, with the answer size in its description', async () => {
    const [f] = planScenarios(
      ['F'],
      await context(
        ['nest-fastify', 'fastify', 'standalone', 'apollo-router', 'hive-gateway', 'hive-gateway-rust'],
        true,
      ),
    );
    expect(f?.rows.map((row) => `${row.target.name} ${row.variant} (${row.setup.key})`)).toEqual([
      'nest-fastify Dashboard (none)',
      'fastify Dashboard (none)',
      'standalone Dashboard (none)',
      'apollo-router Dashboard (none)',
      'hive-gateway Dashboard (none)',
      'hive-gateway-rust Dashboard (none)',
      'nest-fastify Dashboard · apollo executor (apollo-executor)',
      'nest-fastify Dashboard · apollo planner (apollo-planner)',
      'nest-fastify Dashboard · no dedup (no-dedup)',
      'nest-fastify Dashboard · subgraph dedup (subgraph-dedup)',
      'nest-fastify Dashboard · inbound dedup (inbound-dedup)',
      'nest-fastify Dashboard · compressed (compression)',
      'nest-fastify Dashboard · @defer (none)',
      'apollo-router Dashboard · @defer (none)',
      'nest-fastify Dashboard · dedup (dedup)',
      'apollo-router Dashboard · dedup (dedup)',
      'hive-gateway Dashboard · dedup (dedup)',
      'hive-gateway-rust Dashboard · dedup (dedup)',
    ]);
    expect(f?.rows.every((row) => row.load.kind === 'closed' && row.load.connections === 100)).toBe(true);
    expect(f?.rows.every((row) => !row.skip && !row.query.perUser)).toBe(true);
    // Every row answers Dashboard; the @defer rows (and only they) read it as incremental parts.
    const deferred = f?.rows.filter((row) => row.query.incrementalAccept) ?? [];
    expect(deferred.map((row) => row.variant)).toEqual(['Dashboard · @defer', 'Dashboard · @defer']);
    expect(f?.rows.every((row) => row.query.expected === DASHBOARD.expected)).toBe(true);
    // The real size of the reference answer, in KB: between 50 and 100.
    const kb = Number(/is ([\d.]+) KB of JSON/.exec(f?.description ?? '')?.[1]);
    expect(kb).toBeGreaterThanOrEqual(50);
    expect(kb).toBeLessThanOrEqual(100);
  });

  it('measures nest-fastify-cluster without plugins only, and only when asked for', async () => {
    const ctx = await context(['nest-fastify', 'nest-fastify-cluster', 'apollo-router'], true);
    const [cluster] = ctx.targets.filter((t) => t.kind === 'cluster');
    if (!cluster) throw new Error('no cluster target');
    expect(skipFor(cluster, ctx.setups.none, ctx)).toBeUndefined();
    expect(skipFor(cluster, ctx.setups.dedup, ctx)?.status).toBe('skipped');
    const [a] = planScenarios(['A'], ctx);
    expect(
      a?.rows.filter((row) => row.target.name === 'nest-fastify-cluster' && !row.skip).map((row) => row.variant),
    ).toEqual(['GetUserWithProducts', 'ComplexQuery']);
    const defaults = parseOptions([]);
    if (defaults === 'help') throw new Error('unexpected help');
    expect(defaults.targets.map((t) => t.name)).not.toContain('nest-fastify-cluster');
  });

  it('gives the Router and Hive Gateway their dedup config, our gateway its settings', async () => {
    const ctx = await context(['nest-fastify', 'apollo-router', 'hive-gateway'], true);
    const { dedup } = ctx.setups;
    expect(dedup.router).toEqual({ config: 'router-dedup.yaml' });
    expect(dedup.gatewayEnv({})).toEqual({ SUBGRAPH_DEDUPLICATE: 'true', INBOUND_DEDUPLICATE: 'true' });
    expect(dedup.hiveEnv).toEqual({ BENCH_HIVE_INBOUND_DEDUP: 'true' });
    expect(ctx.setups['no-dedup'].gatewayEnv({})).toEqual({ SUBGRAPH_DEDUPLICATE_REPRESENTATIONS: 'false' });
    expect(ctx.setups['subgraph-dedup'].gatewayEnv({})).toEqual({ SUBGRAPH_DEDUPLICATE: 'true' });
    expect(ctx.setups['inbound-dedup'].gatewayEnv({})).toEqual({ INBOUND_DEDUPLICATE: 'true' });
    for (const key of ['no-dedup', 'subgraph-dedup', 'inbound-dedup'] as const) {
      expect(ctx.setups[key].router).toHaveProperty('skip');
    }
    // Hive runs as it ships: none of our plugin setups.
    const [hive] = ctx.targets.filter((t) => t.kind === 'hive');
    if (!hive) throw new Error('no hive target');
    expect(skipFor(hive, ctx.setups['rate-limit'], ctx)?.status).toBe('skipped');
    expect(skipFor(hive, dedup, ctx)).toBeUndefined();
    expect(skipFor(hive, ctx.setups.none, ctx)).toBeUndefined();
  });

  it('marks Router rows not installed when there is no binary, and JWT as licensed', async () => {
    const plans = planScenarios(['A', 'C'], await context(['nest-fastify', 'apollo-router'], false));
    const routerRows = plans.flatMap((plan) => plan.rows).filter((row) => row.target.name === 'apollo-router');
    expect(routerRows.length).toBe(8); // §A: 2 + 2 dedup; §C: 4
    const jwt = routerRows.find((row) => row.variant === 'JWT client awareness');
    expect(jwt?.skip).toEqual({ status: 'skipped', message: 'needs GraphOS-licensed JWT auth' });
    for (const row of routerRows.filter((r) => r !== jwt)) {
      expect(row.skip).toEqual({ status: 'not-installed', message: NOT_INSTALLED });
    }
  });

  it('runs §H on the first mount with shedding off and on, and the Router beside it, each with a batch stream', async () => {
    const [h] = planScenarios(['H'], await context(['fastify', 'nest-express', 'apollo-router'], true));
    expect(
      h?.rows.map((row) => `${row.target.name} ${row.variant} (${row.setup.key}) ${JSON.stringify(row.load)}`),
    ).toEqual([
      'fastify checkout · shedding off (shedding-off) {"kind":"fixed","rate":50}',
      'fastify checkout · shedding on (shedding-on) {"kind":"fixed","rate":50}',
      'apollo-router checkout · every client alike (shedding-off) {"kind":"fixed","rate":50}',
    ]);
    for (const row of h?.rows ?? []) {
      expect(row.skip).toBeUndefined();
      // Two clients: checkout's key on the row, batch's on the competing stream.
      expect(row.setup.competing?.rate).toBe(1500);
      expect(row.setup.competing?.headers['x-api-key']).not.toBe(row.setup.headers['x-api-key']);
    }
    expect(h?.rows[1]?.setup.gatewayEnv({})).toMatchObject({
      SHED_CLASSES: 'checkout=0,batch=1',
      SHED_CLASS_RULES: 'consumer:checkout-svc=checkout,consumer:batch-svc=batch',
    });
    expect(h?.rows[0]?.setup.gatewayEnv({}).SHED_CLASSES).toBeUndefined();
  });

  it('plans every section in full mode, plugins on the first mount only', async () => {
    const plans = planScenarios(SCENARIO_IDS, await context(['nest-fastify', 'fastify', 'apollo-router'], true));
    const count = (id: string) => plans.find((plan) => plan.id === id)?.rows.length;
    expect(count('B')).toBe(2 * 2 * 3);
    expect(count('C')).toBe(4 + 4);
    expect(count('D')).toBe(6 + 3);
    expect(plans.find((plan) => plan.id === 'D')?.rows.map((row) => row.variant)).toEqual([
      'none',
      'demand-control-off',
      'authorization-off',
      'rate-limit',
      'rate-limit+api-key',
      'rate-limit+api-key+jwt',
      'metrics',
      'tracing-1%',
      'tracing-100%',
    ]);
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

describe('external targets in each section', () => {
  const rowsOf = (plans: readonly ScenarioPlan[], name: string) =>
    plans.flatMap((plan) =>
      plan.rows.filter((row) => row.target.name === name).map((row) => `${plan.id} ${row.variant}${skipText(row)}`),
    );
  const skipText = (row: RowPlan) => (row.skip ? ` (${row.skip.status})` : '');

  it('runs an external declared none in §A, §B and the no-plugin rows of §C and §D', async () => {
    const plans = planScenarios(SCENARIO_IDS, await context([], false, { externals: ['gw=http://gw:4000/graphql'] }));
    expect(rowsOf(plans, 'gw')).toEqual([
      'A GetUserWithProducts',
      'A ComplexQuery',
      ...['{ __typename }', 'ComplexQuery'].flatMap((q) => [50, 200, 500].map((c) => `B ${q} · ${c} connections`)),
      'C baseline',
      'D none',
      'F Dashboard',
    ]);
  });

  it('measures an external in the rows of the setup it was declared with, and only there', async () => {
    const plans = planScenarios(
      SCENARIO_IDS,
      await context([], false, {
        externals: [
          'memory@rate-limit=http://a:4000/graphql',
          'redis@rate-limit-redis=http://b:4000/graphql',
          'header@static-header=http://c:4000/graphql',
          'guids@guid-headers=http://d:4000/graphql',
          'cost-off@demand-control-off=http://e:4000/graphql',
          'shared@dedup=http://f:4000/graphql',
        ],
        // An external brings its own Redis: no local redis-server is needed for its rows.
        redisAvailable: false,
      }),
    );
    expect(rowsOf(plans, 'memory')).toEqual([
      'D rate-limit',
      'E rate-limit (memory)',
      'E rate-limit (memory)',
      'E rate-limit (memory)',
    ]);
    expect(rowsOf(plans, 'redis')).toEqual(['E rate-limit (redis)', 'E rate-limit (redis)', 'E rate-limit (redis)']);
    expect(rowsOf(plans, 'header')).toEqual(['C static subgraph header']);
    expect(rowsOf(plans, 'guids')).toEqual(['C ten GUID response headers']);
    expect(rowsOf(plans, 'cost-off')).toEqual(['D demand-control-off']);
    expect(rowsOf(plans, 'shared')).toEqual([
      'A GetUserWithProducts · dedup',
      'A ComplexQuery · dedup',
      'F Dashboard · dedup',
    ]);
    const e = plans.find((plan) => plan.id === 'E');
    expect(e?.rows.filter((row) => row.target.name === 'redis').map((row) => row.load)).toEqual(
      [100, 300, 500].map((rate) => ({ kind: 'fixed', rate })),
    );
  });

  it('keeps the first mount and the Router in every setup beside the externals', async () => {
    const plans = planScenarios(
      ['C', 'D', 'E'],
      await context(['nest-fastify', 'apollo-router'], true, {
        externals: ['redis@rate-limit-redis=http://b/graphql'],
      }),
    );
    const count = (id: string, name: string) =>
      plans.find((plan) => plan.id === id)?.rows.filter((row) => row.target.name === name).length;
    expect([count('C', 'nest-fastify'), count('C', 'apollo-router'), count('C', 'redis')]).toEqual([4, 4, 0]);
    expect([count('D', 'nest-fastify'), count('D', 'redis')]).toEqual([9, 0]);
    expect([count('E', 'nest-fastify'), count('E', 'redis')]).toEqual([6, 3]);
  });

  it('skips an external in any setup but its own, should a section ever plan one', async () => {
    const ctx = await context([], false, { externals: ['redis@rate-limit-redis=http://b/graphql'] });
    const [target] = ctx.targets;
    if (!target) throw new Error('no target');
    expect(skipFor(target, ctx.setups['rate-limit-redis'], ctx)).toBeUndefined();
    expect(skipFor(target, ctx.setups.none, ctx)).toEqual({
      status: 'skipped',
      message: 'redis was declared with setup rate-limit-redis',
    });
  });

  it('keeps external rows in §D, and says a section needs a Node gateway only when it has no row', async () => {
    const plans = planScenarios(['D', 'E'], await context([], false, { externals: ['gw=http://gw/graphql'] }));
    const [d, e] = plans;
    const measured = { target: 'gw', variant: 'none', status: 'ok' as const, rps: 900 };
    expect(d?.finish?.([measured])).toEqual([{ ...measured, keptPercent: 100 }]);
    expect(e?.rows).toEqual([]);
    expect(e?.finish?.([])).toEqual([expect.objectContaining({ status: 'skipped', variant: 'rate-limit (redis)' })]);
  });
});
