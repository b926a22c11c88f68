import type { RequestScope } from '@fedgw/adapters';
import type { Identity } from './plugins/types.js';

/** The context every resolver, plugin and the subgraph data source receives. */
export interface GatewayContext {
  readonly requestId: string;
  readonly scope: RequestScope;
  /** Set by the auth plugins while the context is built; `{}` when anonymous. */
  readonly identity: Identity;
}

export function createContext(scope: RequestScope, identity: Identity = {}): GatewayContext {
  return { requestId: scope.requestId, scope, identity };
}
