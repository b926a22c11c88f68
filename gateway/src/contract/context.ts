import type { GraphQLRequestContextDidResolveOperation } from '@apollo/server';
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

/**
 * How many bytes of subgraph answers one request may still merge into its response
 * (MAX_RESPONSE_BYTES): the data source, and a plugin that answers from a cache, take from it.
 */
export interface ResponseBudget {
  readonly maxBytes: number;
  /** Bytes left before the budget is spent. */
  readonly remaining: number;
  readonly exceeded: boolean;
  /** Marks the budget spent: the request's answer would exceed it. */
  exceed(): void;
  /** Counts `bytes`; false (and spent from now on) when they do not fit. */
  take(bytes: number): boolean;
}
