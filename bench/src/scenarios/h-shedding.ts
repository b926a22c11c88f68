import { GET_USER_WITH_PRODUCTS_QUERY } from '../load/queries.js';
import type { PlanContext, RowPlan, ScenarioPlan } from '../run/plan.js';
import { makeRow, primaryMount } from '../run/plan.js';
import type { SetupKey } from '../targets/setups.js';
import { BATCH_RATE, CHECKOUT_RATE, SHED_MAX_IN_FLIGHT } from '../targets/shedding-setups.js';
import { ROUTER, type TargetSpec } from '../targets/targets.js';

/**
 * §H (ours): load shedding by client priority. Checkout's steady stream is the row's (its p99 and
 * errors are what the table shows); batch's overload runs beside it as another client. Our first
 * mount with shedding off and on, and Apollo Router as it ships under the same offered load.
 */
export function planH(context: PlanContext): ScenarioPlan {
  const load = { kind: 'fixed', rate: CHECKOUT_RATE } as const;
  const mount = primaryMount(context);
  const router = context.targets.find((target) => target.name === ROUTER);
  const row = (target: TargetSpec, setup: SetupKey, words: string): RowPlan =>
    makeRow(context, {
      target,
      setup: context.setups[setup],
      variant: `checkout · ${words}`,
      query: GET_USER_WITH_PRODUCTS_QUERY,
      load,
    });
  const rows: RowPlan[] = [
    ...(mount ? [row(mount, 'shedding-off', 'shedding off'), row(mount, 'shedding-on', 'shedding on')] : []),
    ...(router ? [row(router, 'shedding-off', 'every client alike')] : []),
  ];
  return {
    id: 'H',
    title: 'Load shedding: checkout beside a batch overload',
    description:
      `§H: two clients at once, each an open loop of GetUserWithProducts with its own API key: checkout at ` +
      `${CHECKOUT_RATE} req/s (the row: latency from each request's intended start, a failure counted at its ` +
      `10 s timeout) and batch at ${BATCH_RATE} req/s, more than the gateway serves, from the start of the ` +
      `${context.warmupSec} s warm-up to the end of the ${context.fixedSec} s window. Our first mount with ` +
      `GATEWAY_PLUGINS=api-key, both clients on one address as behind a proxy (UNREAD_ANSWERS_MAX_PER_CLIENT ` +
      `raised, as for a proxy), and load shedding off, then on (SHED_CLASSES=checkout=0,batch=1 by consumer, ` +
      `SHED_MAX_IN_FLIGHT=${SHED_MAX_IN_FLIGHT}: batch is refused with 503 from ${SHED_MAX_IN_FLIGHT} operations ` +
      `in flight, checkout only from ${SHED_MAX_IN_FLIGHT * 3}); Apollo Router as it ships, which serves every ` +
      `client alike. "batch ok/s" and "batch refused" are the competing stream's over its whole run.`,
    kind: 'fixed-rate',
    rows,
  };
}
