import { GET_USER_WITH_PRODUCTS_QUERY } from '../load/queries.js';
import type { PlanContext, RowPlan, ScenarioPlan } from '../run/plan.js';
import { externalsIn, makeRow, primaryMount, runsSetup } from '../run/plan.js';
import type { RowResult } from '../run/results.js';
import type { SetupKey } from '../targets/setups.js';
import { ROUTER, type TargetSpec } from '../targets/targets.js';
import { noGatewayRow } from './no-gateway.js';

const TESTS: readonly (readonly [SetupKey, string])[] = [
  ['none', 'baseline'],
  ['static-header', 'static subgraph header'],
  ['guid-headers', 'ten GUID response headers'],
  ['jwt-client-awareness', 'JWT client awareness'],
];
const SETUP_KEYS = TESTS.map(([key]) => key);

/**
 * Seed §C: what each customization adds to latency at a constant, unsaturated rate. The first
 * mount and the Router in every setup; an external in the setup it was declared with.
 */
export function planC(context: PlanContext): ScenarioPlan {
  const targets = [
    primaryMount(context),
    context.targets.find((t) => t.name === ROUTER),
    ...externalsIn(context, SETUP_KEYS),
  ].filter((target): target is TargetSpec => target !== undefined);
  const load = { kind: 'fixed', rate: context.constantRate } as const;
  const rows: RowPlan[] = targets.flatMap((target) =>
    TESTS.filter(([key]) => runsSetup(target, key)).map(([key, variant]) =>
      makeRow(context, { target, setup: context.setups[key], variant, query: GET_USER_WITH_PRODUCTS_QUERY, load }),
    ),
  );
  return {
    id: 'C',
    title: 'Extensibility overhead: our plugins vs Router config and Rhai',
    description:
      `Seed §C: a constant ${context.constantRate} req/s open loop for ${context.fixedSec} s (after ` +
      `${context.warmupSec} s warm-up) of GetUserWithProducts; latency measured from each request's intended ` +
      `start, in µs. Static subgraph header: our header-rules insert vs router-static-header.yaml. Ten GUID ` +
      `response headers: our response-headers plugin vs a Rhai script. JWT client awareness: our ` +
      `jwt+client-awareness (HS256). Deltas are against the same target's baseline row. An external target ` +
      `has the row of the setup it was declared with.`,
    kind: 'fixed-rate',
    rows,
    finish: (measured) => (measured.length === 0 ? [noGatewayRow('baseline')] : addDeltas(measured)),
  };
}

/** deltaVsBaselineMs = p50/p99 minus the same target's baseline row (both ok). */
export function addDeltas(rows: readonly RowResult[]): RowResult[] {
  return rows.map((row) => {
    const baseline = rows.find((r) => r.target === row.target && r.variant === 'baseline');
    if (row === baseline || row.status !== 'ok' || baseline?.status !== 'ok') return row;
    if (!row.latencyMs || !baseline.latencyMs) return row;
    const delta = (a: number, b: number) => Math.round((a - b) * 1000) / 1000;
    return {
      ...row,
      deltaVsBaselineMs: {
        p50: delta(row.latencyMs.p50, baseline.latencyMs.p50),
        p99: delta(row.latencyMs.p99, baseline.latencyMs.p99),
      },
    };
  });
}
