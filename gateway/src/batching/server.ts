import { ApolloServer, type ApolloServerOptions, type HTTPGraphQLRequest } from '@apollo/server';
import type { GatewayContext } from '../contract/index.js';
import { perOperationBatching } from './per-operation.js';
import { refuseBatch } from './refuse-batch.js';

/**
 * Apollo Server as configured, or with batching (BATCHING_MAX_OPERATIONS > 0): batches of up
 * to `maxOperations` are served, each operation its own request to the plugins. With batching
 * off, it is Apollo Server untouched (a batch gets its 400 `BAD_REQUEST`), so the setting costs
 * nothing unless used.
 */
export function apolloServerWithBatching(
  maxOperations: number,
  options: ApolloServerOptions<GatewayContext>,
): ApolloServer<GatewayContext> {
  if (maxOperations <= 0) return new ApolloServer(options);
  return new BatchingApolloServer(
    {
      ...options,
      allowBatchedHttpRequests: true,
      plugins: [perOperationBatching(), ...(options.plugins ?? [])],
    } as ApolloServerOptions<GatewayContext>,
    maxOperations,
  );
}

/** Refuses a batch that must not start (empty, too large, malformed) before Apollo Server sees it. */
class BatchingApolloServer extends ApolloServer<GatewayContext> {
  readonly #maxOperations: number;

  constructor(options: ApolloServerOptions<GatewayContext>, maxOperations: number) {
    super(options);
    this.#maxOperations = maxOperations;
  }

  override async executeHTTPGraphQLRequest(
    request: Parameters<ApolloServer<GatewayContext>['executeHTTPGraphQLRequest']>[0],
  ): ReturnType<ApolloServer<GatewayContext>['executeHTTPGraphQLRequest']> {
    const refusal = refuseBatch(request.httpGraphQLRequest as HTTPGraphQLRequest, this.#maxOperations);
    return refusal ?? super.executeHTTPGraphQLRequest(request);
  }
}
