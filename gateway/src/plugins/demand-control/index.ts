import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  ClientErrorCode,
  checkKnownKeys,
  defaultsOf,
  httpError,
  integer,
  OptionIssues,
  withDefault,
} from '../../plugin-sdk/index.js';

export interface DemandControlOptions {
  /** Operations whose estimated cost is above this are refused. Default: 25,000 */
  maxCost: number;
}

const PLUGIN = 'demand-control';
/** The schemas (and defaults) MAX_COST and DEMAND_CONTROL_LIST_SIZE are read with, and `maxCost` checked with. */
export const DEMAND_CONTROL_VALUES = Object.freeze({
  maxCost: integer(1, 1_000_000_000),
  /** MAX_COST: the same range, and 0, which turns demand control off. */
  maxCostSetting: withDefault(integer(0, 1_000_000_000), 25_000),
  defaultListSize: withDefault(integer(0, 1_000_000), 10),
});
const DEFAULTS = defaultsOf(DEMAND_CONTROL_VALUES);
export const DEFAULT_MAX_COST = DEFAULTS.maxCostSetting;
export const DEFAULT_LIST_SIZE = DEFAULTS.defaultListSize;

/**
 * Refuses, with 400 COST_ESTIMATED_TOO_EXPENSIVE and the estimate in the error's
 * extensions (`estimatedCost`, `maxCost`), an operation whose static cost estimate is over
 * `maxCost`, before it is planned or any subgraph is called. Depth limits alone do not
 * bound work: nested lists multiply (a 184-byte query of depth 14 answers 1.6 MB). Always on.
 */
export function demandControl(options: DemandControlOptions): GatewayPlugin {
  const issues = new OptionIssues();
  checkKnownKeys(issues, asOptionsObject(PLUGIN, options), ['maxCost']);
  issues.check('maxCost', options.maxCost, DEMAND_CONTROL_VALUES.maxCost, true);
  issues.throwIfAny(PLUGIN);
  const { maxCost } = options;
  return {
    name: PLUGIN,
    apollo: {
      async requestDidStart() {
        return {
          async didResolveOperation(request) {
            // The context's estimate, shared with a cost-based rate limit.
            const cost = request.contextValue.estimateCost(request);
            if (cost <= maxCost) return;
            const estimatedCost = Math.min(Math.round(cost), Number.MAX_SAFE_INTEGER);
            throw httpError(
              ClientErrorCode.COST_ESTIMATED_TOO_EXPENSIVE,
              `The operation's estimated cost is ${estimatedCost}; the limit is ${maxCost}. Ask for fewer items (first/limit) or fewer nested lists.`,
              {},
              { estimatedCost, maxCost },
            );
          },
        };
      },
    },
  };
}
