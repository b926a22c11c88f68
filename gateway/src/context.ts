import type { RequestScope } from '@fedgw/adapters';
import type { Identity } from './plugins/types.js';
import { ResponseBudget } from './response-budget.js';

/** The context every resolver, plugin and the subgraph data source receives. */
export interface GatewayContext {
  readonly requestId: string;
  readonly scope: RequestScope;
  /** Set by the auth plugins while the context is built; `{}` when anonymous. */
  readonly identity: Identity;
  /** Bytes of subgraph answers this request may still merge (MAX_RESPONSE_BYTES). */
  readonly responseBudget: ResponseBudget;
}

export function createContext(
  scope: RequestScope,
  identity: Identity = {},
  maxResponseBytes = Number.POSITIVE_INFINITY,
): GatewayContext {
  return { requestId: scope.requestId, scope, identity, responseBudget: new ResponseBudget(maxResponseBytes) };
}
