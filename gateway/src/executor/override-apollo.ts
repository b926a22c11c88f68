import type { ApolloGateway } from '@apollo/gateway';
import type { QueryPlanner } from '@apollo/query-planner';
import type { Logger } from '../logger.js';
import { overrideLabelsOf } from './override-labels.js';

/**
 * QUERY_PLAN_EXECUTOR=apollo: @apollo/gateway's executor calls the planner without
 * `overrideConditions`, so every progressive-override label is off (each field stays with the
 * subgraph it is overridden from) and `scope.overrideLabels` is not read. Said once per
 * supergraph that has labels, at load, rather than left for someone to notice in the traffic.
 */
export function warnOverrideLabelsOff(gateway: ApolloGateway, logger: Logger): void {
  gateway.onSchemaLoadOrUpdate(() => {
    // Set before the listeners run (updateWithSchemaAndNotify); TypeScript-private, so read with care.
    const planner = (gateway as unknown as { queryPlanner?: QueryPlanner }).queryPlanner;
    const labels = planner ? overrideLabelsOf(planner).all : [];
    if (labels.length === 0) return;
    logger.warn(
      { setting: 'QUERY_PLAN_EXECUTOR', labels },
      'QUERY_PLAN_EXECUTOR=apollo plans with every progressive override label off (overridden fields stay with the subgraph they move from; plugins cannot turn a label on): use QUERY_PLAN_EXECUTOR=lean to serve them',
    );
  });
}
