// A Hive Router query plan (@graphql-hive/router-query-planner) as the QueryPlan of
// @apollo/query-planner that the lean executor runs. The two formats share their node kinds;
// what differs is spelled here: Flatten paths, `requires`, rewrites, and BatchFetch.

import type { PlanNode, QueryPlan } from '@apollo/query-planner';
import type {
  FlattenNodePathSegment,
  FlattenNode as HiveFlattenNode,
  PlanNode as HivePlanNode,
  QueryPlan as HiveQueryPlan,
} from '@graphql-hive/router-query-planner';
import { splitBatch } from './translate-batch.js';
import { translateFetch } from './translate-fetch.js';
import { Untranslatable } from './untranslatable.js';

/** The plan in Apollo's format; throws Untranslatable for a part the lean executor cannot run exactly. */
export function translatePlan(plan: HiveQueryPlan): QueryPlan {
  return plan.node ? { kind: 'QueryPlan', node: translateNode(plan.node) } : { kind: 'QueryPlan' };
}

export function translateNode(node: HivePlanNode): PlanNode {
  switch (node.kind) {
    case 'Fetch':
      return translateFetch(node);
    case 'BatchFetch': {
      const nodes = splitBatch(node).map(({ path, fetch }) => translateFlatten(path, fetch));
      return nodes.length === 1 ? (nodes[0] as PlanNode) : { kind: 'Parallel', nodes };
    }
    case 'Sequence':
      return { kind: 'Sequence', nodes: node.nodes.map(translateNode) };
    case 'Parallel':
      return { kind: 'Parallel', nodes: node.nodes.map(translateNode) };
    case 'Flatten':
      return translateFlatten(node.path, node.node);
    case 'Condition':
      return {
        kind: 'Condition',
        condition: node.condition,
        ...(node.ifClause && { ifClause: translateNode(node.ifClause) }),
        ...(node.elseClause && { elseClause: translateNode(node.elseClause) }),
      };
    default:
      // Defer and Subscription: the lean executor's @defer delivery and subscriptions read Apollo's plans.
      throw new Untranslatable(`a ${node.kind} node`);
  }
}

/**
 * A Flatten node. Apollo's paths are field names and `@`; Hive's may also filter by type
 * (`TypeCondition`). A filter after the last field is left out when the entity fetch's own
 * `requires` fragments already keep only those types (the representations are then the
 * same); a filter anywhere else has no Apollo spelling.
 */
export function translateFlatten(path: readonly FlattenNodePathSegment[], inner: HiveFlattenNode['node']): PlanNode {
  const node = translateNode(inner);
  const apolloPath: string[] = [];
  const filters: string[][] = [];
  for (const segment of path) {
    if (segment === '@') apolloPath.push('@');
    else if ('Field' in segment) {
      if (filters.length > 0) throw new Untranslatable('a type condition inside a flatten path');
      apolloPath.push(segment.Field);
    } else filters.push(segment.TypeCondition);
  }
  if (filters.length > 0 && !requiresKeepOnly(node, filters)) {
    throw new Untranslatable('a type condition its fetch does not imply');
  }
  return { kind: 'Flatten', path: apolloPath, node };
}

/** Every top-level `requires` selection is a fragment on a type that each filter names. */
function requiresKeepOnly(node: PlanNode, filters: readonly string[][]): boolean {
  if (node.kind !== 'Fetch' || !node.requires?.length) return false;
  return node.requires.every(
    (selection) =>
      selection.kind === 'InlineFragment' &&
      selection.typeCondition !== undefined &&
      filters.every((types) => types.includes(selection.typeCondition as string)),
  );
}
