import { COMPLEX, TYPENAME } from '../load/queries.js';
import type { PlanContext, ScenarioPlan } from '../run/plan.js';
import { makeRow, runsSetup } from '../run/plan.js';
import { noGatewayRow } from './no-gateway.js';

/**
 * Seed §B: the HTTP adapters under rising concurrency, where the adapter matters and where it may
 * not. Our mounts, and the externals declared `none` (a container's mount, say).
 */
export function planB(context: PlanContext): ScenarioPlan {
  const targets = context.targets.filter(
    (target) => target.kind === 'mount' || (target.kind === 'external' && runsSetup(target, 'none')),
  );
  return {
    id: 'B',
    title: 'Express vs Fastify, bare and under NestJS, as concurrency grows',
    description:
      `Seed §B: each mount at ${context.adapterConnections.join(', ')} closed-loop connections, ` +
      `${context.closedSec} s after ${context.warmupSec} s warm-up, for { __typename } (no subgraph call: the ` +
      `adapter's share is largest) and for ComplexQuery (four hops: the federation work dominates).`,
    kind: 'closed-loop',
    finish: (measured) => (measured.length === 0 ? [noGatewayRow(`${TYPENAME.name} · 50 connections`)] : [...measured]),
    rows: targets.flatMap((target) =>
      [TYPENAME, COMPLEX].flatMap((query) =>
        context.adapterConnections.map((connections) =>
          makeRow(context, {
            target,
            setup: context.setups.none,
            variant: `${query.name} · ${connections} connections`,
            query,
            load: { kind: 'closed', connections },
          }),
        ),
      ),
    ),
  };
}
