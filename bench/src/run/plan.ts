import type { BenchQuery } from '../load/queries.js';
import type { RouterBinary } from '../targets/router-binary.js';
import type { Setup, SetupKey, Setups } from '../targets/setups.js';
import type { TargetSpec } from '../targets/targets.js';
import type { RowResult, RowStatus, ScenarioId, ScenarioResult } from './results.js';

export type LoadShape =
  | { readonly kind: 'closed'; readonly connections: number }
  | { readonly kind: 'fixed'; readonly rate: number };

/** One row to measure: a target in a setup, a query, a load shape. */
export interface RowPlan {
  readonly target: TargetSpec;
  readonly setup: Setup;
  readonly variant: string;
  readonly query: BenchQuery;
  readonly load: LoadShape;
  readonly durationSec: number;
  readonly warmupSec: number;
  /** Set when the row cannot run (no Router installed, a licensed Router feature...). */
  readonly skip?: { readonly status: Extract<RowStatus, 'skipped' | 'not-installed'>; readonly message: string };
}

export interface ScenarioPlan {
  readonly id: ScenarioId;
  readonly title: string;
  readonly description: string;
  readonly kind: ScenarioResult['kind'];
  readonly rows: readonly RowPlan[];
  /** Fields derived once every row is measured (§C deltas, §D kept percentages). */
  readonly finish?: (rows: readonly RowResult[]) => RowResult[];
}

export interface PlanContext {
  readonly targets: readonly TargetSpec[];
  readonly setups: Setups;
  readonly router: RouterBinary | null;
  readonly redisAvailable: boolean;
  /** Seconds per measured window: closed loop and fixed rate. */
  readonly closedSec: number;
  readonly fixedSec: number;
  readonly warmupSec: number;
  /** §A and §D connections. */
  readonly connections: number;
  /** §B connection counts. */
  readonly adapterConnections: readonly number[];
  /** §C rate. */
  readonly constantRate: number;
  /** §E rates. */
  readonly rates: readonly number[];
}

export const NOT_INSTALLED = 'not installed — run pnpm router:install';

/** Why `target` cannot run `setup`, if it cannot. */
export function skipFor(target: TargetSpec, setup: Setup, context: PlanContext): RowPlan['skip'] {
  if (target.kind === 'router') {
    if ('skip' in setup.router) return { status: 'skipped', message: setup.router.skip };
    if (!context.router) return { status: 'not-installed', message: NOT_INSTALLED };
  }
  if (target.kind === 'cluster' && setup.key !== 'none') {
    return { status: 'skipped', message: `${target.name} is measured without plugins only` };
  }
  if (target.kind === 'standalone' && setup.key !== 'none') {
    return { status: 'skipped', message: `${target.name} runs without our plugins` };
  }
  if (target.kind === 'hive' && setup.key !== 'none' && !setup.hiveEnv) {
    return { status: 'skipped', message: `${target.name} runs as it ships (no plugins of ours)` };
  }
  if (target.kind === 'external') {
    // Its configuration (Redis included) is its own: it runs the setup it was declared with, or none.
    return runsSetup(target, setup.key)
      ? undefined
      : { status: 'skipped', message: `${target.name} was declared with setup ${target.setup ?? 'none'}` };
  }
  if (setup.needsRedis && !context.redisAvailable) {
    return { status: 'skipped', message: 'redis-server not found (install it, or set REDIS_SERVER_BIN)' };
  }
  return undefined;
}

/** Roughly how long the plan takes: every window, plus starting targets and checking answers. */
export function estimateSeconds(plans: readonly ScenarioPlan[]): number {
  let seconds = 5; // subgraphs, environment
  for (const plan of plans) {
    let previous = '';
    for (const row of plan.rows) {
      if (row.skip) continue;
      seconds += row.durationSec + row.warmupSec + 1;
      const group = `${row.target.name}/${row.setup.key}`;
      if (group !== previous) seconds += 4; // start, answer check, stop
      previous = group;
    }
  }
  return seconds;
}

/** A row with the context's durations for its load kind and any reason it must be skipped. */
export function makeRow(
  context: PlanContext,
  fields: Pick<RowPlan, 'target' | 'setup' | 'variant' | 'query' | 'load'>,
): RowPlan {
  const durationSec = fields.load.kind === 'closed' ? context.closedSec : context.fixedSec;
  const skip = skipFor(fields.target, fields.setup, context);
  return { ...fields, durationSec, warmupSec: context.warmupSec, ...(skip ? { skip } : {}) };
}

/**
 * Whether a scenario should plan `target` in setup `key`: we configure our own targets per row,
 * while an external endpoint runs the one setup it was declared with (`--external name@setup=url`).
 */
export function runsSetup(target: TargetSpec, key: SetupKey): boolean {
  return target.kind !== 'external' || (target.setup ?? 'none') === key;
}

/** The external targets declared with one of `keys`: a plugin section measures each in that row only. */
export function externalsIn(context: PlanContext, keys: readonly SetupKey[]): TargetSpec[] {
  return context.targets.filter((target) => target.kind === 'external' && keys.some((key) => runsSetup(target, key)));
}

/** The Node gateway mount that §C-§E configure with plugins: the first mount among the targets. */
export function primaryMount(context: PlanContext): TargetSpec | undefined {
  return context.targets.find((target) => target.kind === 'mount');
}
