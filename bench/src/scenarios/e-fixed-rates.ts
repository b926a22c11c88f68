import { GET_USER_WITH_PRODUCTS_QUERY } from '../load/queries.js';
import type { PlanContext, ScenarioPlan } from '../run/plan.js';
import { externalsIn, makeRow, primaryMount, runsSetup } from '../run/plan.js';
import type { SetupKey } from '../targets/setups.js';
import { noGatewayRow } from './no-gateway.js';

const STORES: readonly (readonly [SetupKey, string])[] = [
  ['rate-limit', 'rate-limit (memory)'],
  ['rate-limit-redis', 'rate-limit (redis)'],
];
const STORE_KEYS = STORES.map(([key]) => key);

/**
 * Seed §E: the tail at rising fixed arrival rates, in-process counter vs one over the network
 * (Redis). An external declared rate-limit or rate-limit-redis runs its store's rows.
 */
export function planE(context: PlanContext): ScenarioPlan {
  const target = primaryMount(context);
  const targets = [...(target ? [target] : []), ...externalsIn(context, STORE_KEYS)];
  return {
    id: 'E',
    title: 'Fixed arrival rates with a Redis-backed rate limit',
    description:
      `Seed §E: ${target?.name ?? 'a Node gateway'} with the rate limit counting in memory and in a real ` +
      `redis-server (one Lua script per request, failure mode closed), at ${context.rates.join(', ')} req/s ` +
      `open loop for ${context.fixedSec} s each (after ${context.warmupSec} s warm-up), GetUserWithProducts; ` +
      `avg/p50/p90/p95 latency from each request's intended start. An external target declared with a ` +
      `rate-limit setup runs that store's rows (its own Redis).`,
    kind: 'fixed-rate',
    rows: targets.flatMap((each) =>
      STORES.filter(([key]) => runsSetup(each, key)).flatMap(([key, variant]) =>
        context.rates.map((rate) =>
          makeRow(context, {
            target: each,
            setup: context.setups[key],
            variant,
            query: GET_USER_WITH_PRODUCTS_QUERY,
            load: { kind: 'fixed', rate },
          }),
        ),
      ),
    ),
    finish: (rows) => (rows.length > 0 ? [...rows] : [noGatewayRow('rate-limit (redis)')]),
  };
}
