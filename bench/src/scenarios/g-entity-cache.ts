import { CATALOGUE, PRODUCT_PAGE_QUERY } from '../load/catalogue.js';
import type { BenchQuery } from '../load/queries.js';
import type { PlanContext, RowPlan, ScenarioPlan } from '../run/plan.js';
import { makeRow, primaryMount } from '../run/plan.js';
import type { SetupKey } from '../targets/setups.js';
import { HIVE_GATEWAY_RUST, ROUTER } from '../targets/targets.js';

/**
 * The row's query as the plan and the setup check see it; the load sends the setup's workload
 * (anonymous and signed-in product pages), and the answers are checked against its samples.
 */
export const PRODUCT_PAGE: BenchQuery = {
  name: 'ProductPage',
  text: PRODUCT_PAGE_QUERY,
  perUser: false,
  expected: () => {
    throw new Error('§G checks its workload samples, not one answer');
  },
};

/** Our first mount's three rows: the entity cache off, in memory, in Redis. */
const OUR_STORES: readonly { readonly setup: SetupKey; readonly words: string }[] = [
  { setup: 'entity-cache-off', words: 'entity cache off' },
  { setup: 'entity-cache-memory', words: 'entity cache memory' },
  { setup: 'entity-cache-redis', words: 'entity cache redis' },
];

/**
 * §G (ours): a cacheable workload. Product pages with the product drawn by Zipf over the demo
 * catalogue and a share of signed-in users asking for their own profile too (users answer
 * `private`). Our first mount with ENTITY_CACHE off, memory and redis; Apollo Router as it
 * ships (its entity cache needs a licence); Hive Gateway (Rust planner) with its response cache.
 */
export function planG(context: PlanContext): ScenarioPlan {
  const load = { kind: 'closed', connections: context.connections } as const;
  const mount = primaryMount(context);
  const router = context.targets.find((target) => target.name === ROUTER);
  const hive = context.targets.find((target) => target.name === HIVE_GATEWAY_RUST);
  const row = (target: NonNullable<typeof mount>, setup: SetupKey, words: string): RowPlan =>
    makeRow(context, {
      target,
      setup: context.setups[setup],
      variant: `${PRODUCT_PAGE.name} · ${words}`,
      query: PRODUCT_PAGE,
      load,
    });
  const rows: RowPlan[] = [
    ...(mount ? OUR_STORES.map(({ setup, words }) => row(mount, setup, words)) : []),
    ...(router ? [row(router, 'entity-cache-off', 'no cache (licensed)')] : []),
    ...(hive ? [row(hive, 'response-cache', 'response cache')] : []),
  ];
  const percent = Math.round(CATALOGUE.signedInShare * 100);
  return {
    id: 'G',
    title: 'Entity cache: a cacheable workload, subgraph requests saved',
    description:
      `§G: a product page per request (product, price, stock, its reviews: products then reviews), the product ` +
      `drawn by Zipf (s = ${CATALOGUE.zipfExponent}) over the demo's 500 products from a seeded PRNG (the same ` +
      `sequence on every row); ${percent}% of requests from ${CATALOGUE.signedInUsers} signed-in users (a JWT ` +
      `each, HS256, signed with the run's secret) who also ask for their own profile (\`user(id:)\`: the users ` +
      `subgraph answers \`Cache-Control: private\`). ${context.connections} closed-loop connections, ` +
      `${context.closedSec} s after ${context.warmupSec} s warm-up. Our first mount verifies the tokens ` +
      `(GATEWAY_PLUGINS=jwt, JWT_REQUIRED=false) with ENTITY_CACHE=off, memory or redis (the harness's ` +
      `redis-server); Apollo Router as it ships (its entity cache needs a GraphOS licence); Hive Gateway ` +
      `(Rust planner) with its built-in responseCaching, its session the Authorization header (Hive ignores ` +
      `\`private\`, so each token gets its own answers; anonymous ones are shared), the TTL the shortest ` +
      `\`max-age\` of the request's fetches. "Subgraph req./req.": what the subgraphs received during the ` +
      `window per answered request, counted by the subgraphs.`,
    kind: 'closed-loop',
    rows,
  };
}
