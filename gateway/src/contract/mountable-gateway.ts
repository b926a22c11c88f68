import type { ApolloServer, BaseContext } from '@apollo/server';
import type { RequestScope } from './request-scope.js';

/**
 * The narrow contract every platform adapter mounts. The gateway core implements it;
 * tests can build one around any started ApolloServer.
 */
export interface MountableGateway<TContext extends BaseContext = BaseContext> {
  /** A started ApolloServer. */
  readonly server: ApolloServer<TContext>;
  /** Where GraphQL is served, e.g. `/graphql`. */
  readonly path: string;
  /** Larger request bodies get HTTP 413. */
  readonly bodyLimitBytes: number;
  context(scope: RequestScope): Promise<TContext>;
  /** `/ready` answers 503 while this is false (loading, or draining before shutdown). */
  isReady(): boolean;
  /** Called once per request on the GraphQL path, after the response is sent. */
  onResponse?(scope: RequestScope, statusCode: number): void;
}
