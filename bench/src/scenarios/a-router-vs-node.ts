import { COMPLEX, GET_USER_WITH_PRODUCTS_QUERY } from '../load/queries.js';
import type { PlanContext, RowPlan, ScenarioPlan } from '../run/plan.js';
import { externalsIn, makeRow, primaryMount, runsSetup } from '../run/plan.js';
import type { SetupKey } from '../targets/setups.js';
import { ROUTER } from '../targets/targets.js';
import { apolloExecutorVariant, apolloPlannerVariant, compressedVariant, dedupVariant } from './dedup-rows.js';

/**
 * Seed §A: every target (externals declared `none`), both queries, 100 connections; memory after
 * sustained load. Then the Router and the first mount with their own dedup ("· dedup" rows):
 * with a random user per request few requests coincide, which is the point of showing them.
 */
export function planA(context: PlanContext): ScenarioPlan {
  const targets = context.targets.filter((target) => runsSetup(target, 'none'));
  const load = { kind: 'closed', connections: context.connections } as const;
  const dedupTargets = [
    primaryMount(context),
    context.targets.find((target) => target.name === ROUTER),
    ...externalsIn(context, ['dedup']),
  ].filter((target) => target !== undefined);
  return {
    id: 'A',
    title: 'Apollo Router vs Node gateways: throughput, latency, memory',
    description:
      `Seed §A: GetUserWithProducts (two subgraphs) and ComplexQuery (four hops), a random user-1..user-1000 ` +
      `per request, ${context.connections} closed-loop connections (autocannon), ${context.closedSec} s measured ` +
      `after ${context.warmupSec} s warm-up per row. Peak RSS is each row's own (VmHWM reset when its window ` +
      `starts); one process serves both queries, so the ComplexQuery row's starts from what the first row left. ` +
      `"· apollo executor" rows: the first mount with QUERY_PLAN_EXECUTOR=apollo (@apollo/gateway's own ` +
      `executeQueryPlan instead of the lean executor). "· apollo planner" rows: the first mount with QUERY_PLANNER=apollo ` +
      `(Apollo's planner; the default is Hive Router's, ADR 062; plans cached, so what its plans cost to run). "· dedup" rows: the Router with traffic_shaping.all.deduplicate_query, the first mount with ` +
      `SUBGRAPH_DEDUPLICATE and INBOUND_DEDUPLICATE. "· compressed" rows: the first mount, every request sending ` +
      `\`Accept-Encoding: gzip, deflate, br\` (the others send none, so get identity): gzip (the tie's winner) for ` +
      `answers of COMPRESSION_MIN_BYTES (1024) or more, i.e. ComplexQuery; GetUserWithProducts' is smaller.`,
    kind: 'closed-loop',
    rows: [
      ...targets.flatMap((target) =>
        [GET_USER_WITH_PRODUCTS_QUERY, COMPLEX].map((query) =>
          makeRow(context, { target, setup: context.setups.none, variant: query.name, query, load }),
        ),
      ),
      // The first mount on @apollo/gateway's executor: what the lean executor saves, in the same run.
      ...firstMountRows(context, 'apollo-executor', apolloExecutorVariant),
      // The first mount planning with Apollo's planner (the default is Hive's): what its plans cost to run.
      ...firstMountRows(context, 'apollo-planner', apolloPlannerVariant),
      // The first mount with clients that ask for compression: what compressing costs in CPU.
      ...firstMountRows(context, 'compression', compressedVariant),
      ...dedupTargets.flatMap((target) =>
        [GET_USER_WITH_PRODUCTS_QUERY, COMPLEX].map((query) =>
          makeRow(context, { target, setup: context.setups.dedup, variant: dedupVariant(query.name), query, load }),
        ),
      ),
    ],
  };
}

/** Both queries on the first mount (and each external declaring `setup`) in one of its variants. */
function firstMountRows(context: PlanContext, setup: SetupKey, variantOf: (query: string) => string): RowPlan[] {
  const load = { kind: 'closed', connections: context.connections } as const;
  return [primaryMount(context), ...externalsIn(context, [setup])]
    .filter((target) => target !== undefined)
    .flatMap((target) =>
      [GET_USER_WITH_PRODUCTS_QUERY, COMPLEX].map((query) =>
        makeRow(context, { target, setup: context.setups[setup], variant: variantOf(query.name), query, load }),
      ),
    );
}
