import type { RequestScope } from '@fedgw/adapters';

/** The context every resolver, plugin and the subgraph data source receives. */
export interface GatewayContext {
  readonly requestId: string;
  readonly scope: RequestScope;
}

export function createContext(scope: RequestScope): GatewayContext {
  return { requestId: scope.requestId, scope };
}
