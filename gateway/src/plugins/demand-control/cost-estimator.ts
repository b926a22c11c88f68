import { type FragmentDefinitionNode, Kind } from 'graphql';
import type { GatewayContext, GatewayPlugin, ResolvedRequest } from '../../plugin-sdk/index.js';
import { type CostDirectives, NO_COST_DIRECTIVES, readCostDirectives } from './cost-directives.js';
import { estimateCost } from './estimate-cost.js';

/**
 * Estimates operation costs against the current supergraph's `@cost`/`@listSize`
 * declarations, once per request: demand control (MAX_COST) and the rate limiter
 * (RATE_LIMIT_COST=estimated) read the same figure.
 */
export class CostEstimator {
  readonly defaultListSize: number;
  #directives: CostDirectives = NO_COST_DIRECTIVES;
  readonly #costs = new WeakMap<GatewayContext, number>();

  constructor(defaultListSize: number) {
    this.defaultListSize = defaultListSize;
  }

  /** Called with each supergraph the gateway loads. */
  useSupergraph(supergraphSdl: string): void {
    this.#directives = readCostDirectives(supergraphSdl);
  }

  costOf(request: ResolvedRequest): number {
    const known = this.#costs.get(request.contextValue);
    if (known !== undefined) return known;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of request.document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const cost = request.operation
      ? estimateCost(request.operation, fragments, {
          schema: request.schema,
          directives: this.#directives,
          variables: request.request.variables ?? {},
          defaultListSize: this.defaultListSize,
        })
      : 0;
    this.#costs.set(request.contextValue, cost);
    return cost;
  }
}

/** Keeps `estimator` on the cost declarations of the supergraph being served. */
export function costDeclarations(estimator: CostEstimator): GatewayPlugin {
  return { name: 'cost-declarations', onSupergraph: ({ sdl }) => estimator.useSupergraph(sdl) };
}
