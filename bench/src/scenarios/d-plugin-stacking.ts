import { GET_USER_WITH_PRODUCTS_QUERY } from '../load/queries.js';
import type { PlanContext, ScenarioPlan } from '../run/plan.js';
import { externalsIn, makeRow, primaryMount, runsSetup } from '../run/plan.js';
import type { RowResult } from '../run/results.js';
import type { SetupKey } from '../targets/setups.js';
import { noGatewayRow } from './no-gateway.js';

const STACK: readonly SetupKey[] = [
  'none',
  'demand-control-off',
  'authorization-off',
  'rate-limit',
  'rate-limit+api-key',
  'rate-limit+api-key+jwt',
  // Each on its own over `none`: what observing the gateway costs.
  'metrics',
  'tracing-1%',
  'tracing-100%',
];

/** Seed §D: throughput kept as plugins are stacked on one gateway; an external in its declared setup's row. */
export function planD(context: PlanContext): ScenarioPlan {
  const target = primaryMount(context);
  const targets = [...(target ? [target] : []), ...externalsIn(context, STACK)];
  const load = { kind: 'closed', connections: context.connections } as const;
  return {
    id: 'D',
    title: 'Plugin stacking: throughput kept as plugins are added',
    description:
      `Seed §D: ${target?.name ?? 'a Node gateway'} with no plugin (defaults, demand control on), with demand ` +
      `control off (MAX_COST=0, what the cost estimate costs), with authorization off (the supergraph ` +
      `without its @authenticated/@requiresScopes/@policy, what checking them costs), then rate limit (in memory, limit never ` +
      `reached), + API key, + JWT (HS256); then, each alone over no plugin, Prometheus metrics ` +
      `(METRICS_ENABLED, prom-client defaults) and OpenTelemetry tracing exported over OTLP/HTTP protobuf ` +
      `to a sink of the bench's, 1% and 100% sampled (parentbased_traceidratio); GetUserWithProducts at ` +
      `${context.connections} closed-loop ` +
      `connections, ${context.closedSec} s after ${context.warmupSec} s warm-up; kept % vs no plugin. An ` +
      `external target has the row of the setup it was declared with.`,
    kind: 'closed-loop',
    rows: targets.flatMap((each) =>
      STACK.filter((key) => runsSetup(each, key)).map((key) =>
        makeRow(context, {
          target: each,
          setup: context.setups[key],
          variant: key,
          query: GET_USER_WITH_PRODUCTS_QUERY,
          load,
        }),
      ),
    ),
    finish: (rows) => (rows.length > 0 ? addKeptPercent(rows) : [noGatewayRow('none')]),
  };
}

/** keptPercent = rps ÷ the same target's `none` row's rps × 100 (both ok). */
export function addKeptPercent(rows: readonly RowResult[]): RowResult[] {
  return rows.map((row) => {
    const none = rows.find((r) => r.target === row.target && r.variant === 'none');
    if (row.status !== 'ok' || none?.status !== 'ok' || !none.rps || row.rps === undefined) return row;
    return { ...row, keptPercent: Math.round((row.rps / none.rps) * 1000) / 10 };
  });
}
