// QUERY_PLANNER=hive: plans from Hive Router's planner (@graphql-hive/router-query-planner, a
// native addon), translated into the QueryPlan the lean executor runs. ADR 061.
import { createRequire } from 'node:module';
import type { QueryPlan } from '@apollo/query-planner';
import type { QueryPlanner as HiveQueryPlanner } from '@graphql-hive/router-query-planner';
import type { GraphQLSchema } from 'graphql';
import { GatewayConfigError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { OverrideDecision } from '../override-decision.js';
import { hiveLabels } from './override-labels.js';
import { translatePlan } from './translate-plan.js';
import { Untranslatable } from './untranslatable.js';

/** Plans an operation, or answers `undefined` for one Apollo's planner must plan. */
export interface SecondPlanner {
  plan(supergraph: SupergraphSource, query: Query, overrides: OverrideDecision | undefined): QueryPlan | undefined;
}

/** The loaded supergraph: its schema (one per load, the cache key) and its SDL. */
export interface SupergraphSource {
  readonly supergraphSchema: GraphQLSchema;
  readonly supergraphSdl?: string;
}

/** The operation: its text, its name, and whether the lean executor needs Apollo's plan for it. */
export interface Query {
  readonly text: string;
  readonly operationName: string | null | undefined;
  /** @defer and subscriptions: the lean executor's delivery of those reads Apollo's plans. */
  readonly apolloOnly: boolean;
}

type PlannerClass = typeof HiveQueryPlanner;

/** Loaded on the first plan, so the default gateway never loads the addon (ADR 044). */
let plannerClass: PlannerClass | undefined;
function loadPlannerClass(): PlannerClass {
  try {
    plannerClass ??= (
      createRequire(import.meta.url)('@graphql-hive/router-query-planner') as { QueryPlanner: PlannerClass }
    ).QueryPlanner;
  } catch (cause) {
    throw new GatewayConfigError([{ field: 'QUERY_PLANNER', message: noAddon(cause) }]);
  }
  return plannerClass;
}

/** Why the addon did not load, and what to set instead (it ships for glibc Linux and macOS only). */
export function noAddon(cause: unknown): string {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return `hive (the default) needs Hive Router's native planner, which did not load on ${process.platform}-${process.arch} (${reason}); set QUERY_PLANNER=apollo`;
}

/** Loads the addon now, so a platform it does not ship for stops the gateway at startup, not at the first plan. */
export function hivePlanner(logger: Logger): SecondPlanner {
  const Planner = loadPlannerClass();
  // One Hive planner per loaded supergraph; null when it refused the supergraph (Apollo's plans it then).
  const planners = new WeakMap<GraphQLSchema, HiveQueryPlanner | null>();
  const plannerFor = (supergraph: SupergraphSource): HiveQueryPlanner | null => {
    let planner = planners.get(supergraph.supergraphSchema);
    if (planner === undefined) {
      planner = buildPlanner(Planner, supergraph.supergraphSdl, logger);
      planners.set(supergraph.supergraphSchema, planner);
    }
    return planner;
  };
  return {
    plan(supergraph, query, overrides) {
      if (query.apolloOnly) return undefined;
      const planner = plannerFor(supergraph);
      if (!planner) return undefined;
      const labels = hiveLabels(overrides, planner.overridePercentages);
      if (!labels) return undefined;
      // A planning error is the answer (as Apollo's planner throws its own): never retried with the other planner.
      const hivePlan = planner.plan(query.text, query.operationName ?? null, labels.custom, labels.percentageValue);
      try {
        return translatePlan(hivePlan);
      } catch (error) {
        if (!(error instanceof Untranslatable)) throw error;
        logger.debug({ reason: error.message }, 'QUERY_PLANNER=hive: planned by Apollo instead');
        return undefined;
      }
    },
  };
}

function buildPlanner(Planner: PlannerClass, sdl: string | undefined, logger: Logger): HiveQueryPlanner | null {
  if (!sdl) return null;
  try {
    return new Planner(sdl);
  } catch (error) {
    logger.warn({ err: error }, 'QUERY_PLANNER=hive: the Hive planner refused this supergraph; Apollo plans it');
    return null;
  }
}
