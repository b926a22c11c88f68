import type { GatewayContext, Identity, RequestScope, ResolvedRequest } from './contract/index.js';
import { ResponseBudget } from './response-budget.js';

/** Estimates an operation's cost; the gateway gives it the current supergraph's estimator. */
export type CostOf = (request: ResolvedRequest) => number;

const NO_COST: CostOf = () => 0;

export function createContext(
  scope: RequestScope,
  identity: Identity = {},
  maxResponseBytes = Number.POSITIVE_INFINITY,
  costOf: CostOf = NO_COST,
): GatewayContext {
  return {
    requestId: scope.requestId,
    scope,
    identity,
    responseBudget: new ResponseBudget(maxResponseBytes),
    estimateCost: costOf,
  };
}
