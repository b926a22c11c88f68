import type { GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import type { ResponseBudget } from '../response-budget.js';
import type { Identity } from './identity.js';
import type { RequestScope } from './request-scope.js';

/** The context every resolver, plugin and the subgraph data source receives. */
export interface GatewayContext {
  readonly requestId: string;
  readonly scope: RequestScope;
  /** Set by the auth plugins while the context is built; `{}` when anonymous. */
  readonly identity: Identity;
  /** Bytes of subgraph answers this request may still merge (MAX_RESPONSE_BYTES). */
  readonly responseBudget: ResponseBudget;
  /**
   * The operation's estimated cost (IBM cost spec, from the supergraph's `@cost` and
   * `@listSize`), computed once per request: demand control and a cost-based rate limit
   * read the same figure. Call it from `didResolveOperation` or later.
   */
  estimateCost(request: ResolvedRequest): number;
}

/** An Apollo request once its operation is parsed, validated and chosen. */
export type ResolvedRequest = GraphQLRequestContextDidResolveOperation<GatewayContext>;
