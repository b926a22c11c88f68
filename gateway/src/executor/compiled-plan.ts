import { type Operation, operationFromDocument, type Schema } from '@apollo/federation-internals';
import type { OperationContext } from '@apollo/gateway/dist/operationContext.js';
import type { FetchNode, PlanNode, QueryPlan, SubscriptionNode } from '@apollo/query-planner';
import { GraphQLError, Kind } from 'graphql';
import { compileShaper, type Shaper } from './shape.js';

/** What the lean executor keeps per cached plan: built on its first run, reused by every later one. */
export interface CompiledPlan {
  readonly node: PlanNode | undefined;
  readonly operation: Operation;
  readonly shaper: Shaper;
  /** The plan has a Defer node. */
  readonly defers: boolean;
}

/**
 * Compiles a plan for the lean path, or returns null when the stock executor must run it:
 * subscription nodes, introspection fields, or an operation that federation cannot
 * build (the stock executor answers that with its own error).
 */
export function compilePlan(
  queryPlan: QueryPlan,
  operationContext: OperationContext,
  apiSchema: Schema,
): CompiledPlan | null {
  if (queryPlan.node && !supported(queryPlan.node)) return null;
  const compiled = compileOperation(operationContext, apiSchema);
  return compiled && { node: queryPlan.node as PlanNode | undefined, defers: hasDefer(queryPlan.node), ...compiled };
}

/** A subscription's plan: its first fetch (to the subgraph that owns the field), and the rest, run per event. */
export interface CompiledSubscription extends CompiledPlan {
  readonly primary: FetchNode;
}

/** Compiles a subscription plan for its events, or returns null when it cannot be (a node the lean path does not run). */
export function compileSubscription(
  queryPlan: QueryPlan,
  operationContext: OperationContext,
  apiSchema: Schema,
): CompiledSubscription | null {
  const node = queryPlan.node;
  if (node?.kind !== 'Subscription' || (node.rest && !supported(node.rest))) return null;
  const compiled = compileOperation(operationContext, apiSchema);
  return compiled && { node: node.rest, primary: node.primary, defers: false, ...compiled };
}

function compileOperation(
  operationContext: OperationContext,
  apiSchema: Schema,
): Omit<CompiledPlan, 'node' | 'defers'> | null {
  let operation: Operation;
  try {
    // As executeQueryPlan.js builds it per request: the operation and every fragment, unvalidated.
    operation = operationFromDocument(
      apiSchema,
      { kind: Kind.DOCUMENT, definitions: [operationContext.operation, ...Object.values(operationContext.fragments)] },
      { validate: false },
    );
  } catch (error) {
    if (error instanceof GraphQLError) return null;
    throw error;
  }
  const shaper = compileShaper(operation);
  return shaper ? { operation, shaper } : null;
}

function supported(node: PlanNode | SubscriptionNode): boolean {
  switch (node.kind) {
    case 'Sequence':
    case 'Parallel':
      return node.nodes.every(supported);
    case 'Flatten':
      return supported(node.node);
    case 'Fetch':
      return true;
    case 'Defer':
      return (
        (!node.primary.node || supported(node.primary.node)) &&
        node.deferred.every((deferred) => !deferred.node || supported(deferred.node))
      );
    case 'Condition':
      return (!node.ifClause || supported(node.ifClause)) && (!node.elseClause || supported(node.elseClause));
    default:
      return false;
  }
}

function hasDefer(node: PlanNode | SubscriptionNode | undefined): boolean {
  switch (node?.kind) {
    case 'Defer':
      return true;
    case 'Sequence':
    case 'Parallel':
      return node.nodes.some(hasDefer);
    case 'Flatten':
      return hasDefer(node.node);
    case 'Condition':
      return hasDefer(node.ifClause) || hasDefer(node.elseClause);
    default:
      return false;
  }
}
