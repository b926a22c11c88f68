import { DASHBOARD, DASHBOARD_ANSWER_BYTES, DASHBOARD_DEFERRED } from '../load/queries.js';
import type { PlanContext, RowPlan, ScenarioPlan } from '../run/plan.js';
import { externalsIn, makeRow, primaryMount, runsSetup } from '../run/plan.js';
import type { SetupKey } from '../targets/setups.js';
import { ROUTER } from '../targets/targets.js';
import {
  apolloExecutorVariant,
  apolloPlannerVariant,
  compressedVariant,
  dedupVariant,
  OUR_DEDUP_VARIANTS,
} from './dedup-rows.js';

/**
 * §F (ours, not the seed's): one large answer full of repeated entities, the same operation
 * from every client, as dashboards do. Every target as it ships; then the dedup variants
 * (the Router's `deduplicate_query`, our SUBGRAPH_/INBOUND_DEDUPLICATE on the first mount,
 * Hive Gateway's inbound in-flight dedup) to show what each one's own dedup is worth here.
 */
export function planF(context: PlanContext): ScenarioPlan {
  return {
    id: 'F',
    title: 'Large answers with repeated entities, every client asking the same',
    description: planFDescription(context),
    kind: 'closed-loop',
    rows: planFRows(context),
  };
}

/** Each target as it ships, our first mount in each of its variants, and each target with its own dedup. */
function planFRows(context: PlanContext): RowPlan[] {
  const load = { kind: 'closed', connections: context.connections } as const;
  const plain = context.targets.filter((target) => runsSetup(target, 'none'));
  const dedup = [
    primaryMount(context),
    context.targets.find((target) => target.name === ROUTER),
    ...context.targets.filter((target) => target.kind === 'hive'),
    ...externalsIn(context, ['dedup']),
  ].filter((target) => target !== undefined);
  return [
    ...plain.map((target) =>
      makeRow(context, { target, setup: context.setups.none, variant: DASHBOARD.name, query: DASHBOARD, load }),
    ),
    // Our first mount on @apollo/gateway's executor: what the lean executor saves on a large answer.
    ...firstMountRows(context, 'apollo-executor', apolloExecutorVariant(DASHBOARD.name)),
    // Our first mount planning with Apollo's planner (the default is Hive's, ADR 062): what its plans cost.
    ...firstMountRows(context, 'apollo-planner', apolloPlannerVariant(DASHBOARD.name)),
    // Our first mount with each dedup alone: representations off, then one of the two in-flight kinds.
    ...OUR_DEDUP_VARIANTS.flatMap(({ setup, words }) => firstMountRows(context, setup, `${DASHBOARD.name} · ${words}`)),
    // Our first mount with clients that ask for compression (brotli at quality 4): its CPU cost on a large answer.
    ...firstMountRows(context, 'compression', compressedVariant(DASHBOARD.name)),
    // @defer as Apollo Client 4 asks for it: our first mount and the Router (Hive Gateway writes
    // another incremental format), timed to the first part and to the whole answer.
    ...[primaryMount(context), context.targets.find((target) => target.name === ROUTER)]
      .filter((target) => target !== undefined)
      .map((target) =>
        makeRow(context, {
          target,
          setup: context.setups.none,
          variant: DASHBOARD_DEFERRED.name,
          query: DASHBOARD_DEFERRED,
          load,
        }),
      ),
    ...dedup.map((target) =>
      makeRow(context, {
        target,
        setup: context.setups.dedup,
        variant: dedupVariant(DASHBOARD.name),
        query: DASHBOARD,
        load,
      }),
    ),
  ];
}

/** Dashboard on our first mount (and each external declaring `setup`) in one of its variants. */
function firstMountRows(context: PlanContext, setup: SetupKey, variant: string): RowPlan[] {
  const load = { kind: 'closed', connections: context.connections } as const;
  return [primaryMount(context), ...externalsIn(context, [setup])]
    .filter((target) => target !== undefined)
    .map((target) => makeRow(context, { target, setup: context.setups[setup], variant, query: DASHBOARD, load }));
}

function planFDescription(context: PlanContext): string {
  const kb = (DASHBOARD_ANSWER_BYTES / 1024).toFixed(1);
  return (
    `§F: every client sends the same Dashboard operation (three fragments; top products, their reviews, ` +
    `each author and that author's other reviews with their products: five subgraph fetches), whose answer ` +
    `is ${kb} KB of JSON in which authors and products repeat; ${context.connections} closed-loop ` +
    `connections, ${context.closedSec} s after ${context.warmupSec} s warm-up. Each target as it ships ` +
    `(ours deduplicates repeated representations in each fetch by default); our first mount on ` +
    `@apollo/gateway's executor ("· apollo executor": QUERY_PLAN_EXECUTOR=apollo), on Apollo's planner ` +
    `("· apollo planner": QUERY_PLANNER=apollo; the default is Hive Router's, ADR 062) and with each of its ` +
    `dedups alone ("· no dedup": SUBGRAPH_DEDUPLICATE_REPRESENTATIONS=false; "· subgraph dedup": ` +
    `SUBGRAPH_DEDUPLICATE; "· inbound dedup": INBOUND_DEDUPLICATE); ` +
    `with clients that send \`Accept-Encoding: gzip, deflate, br\` ("· compressed": gzip, the tie's winner; ` +
    `the other rows send none and get identity); ` +
    `Dashboard with its reviews block deferred ("· @defer", \`multipart/mixed;deferSpec=20220824\` as ` +
    `Apollo Client 4 asks) on our first mount and the Router, timed to the first part and to the whole answer; ` +
    `then with its own dedup ("· dedup"): the Router with traffic_shaping.all.deduplicate_query, our ` +
    `first mount with SUBGRAPH_DEDUPLICATE and INBOUND_DEDUPLICATE, Hive Gateway with ` +
    `inboundInflightRequestDeduplication. CPU per request is given for the gateway and the subgraphs ` +
    `separately: dedup saves the subgraphs' work first.`
  );
}
