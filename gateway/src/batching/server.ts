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

/**
 * Refuses a batch that must not start (empty, too large, malformed) before Apollo Server sees
 * it, and marks a served batch's answer `no-store`.
 */
class BatchingApolloServer extends ApolloServer<GatewayContext> {
  readonly #maxOperations: number;

  constructor(options: ApolloServerOptions<GatewayContext>, maxOperations: number) {
    super(options);
    this.#maxOperations = maxOperations;
  }

  override async executeHTTPGraphQLRequest(
    request: Parameters<ApolloServer<GatewayContext>['executeHTTPGraphQLRequest']>[0],
  ): ReturnType<ApolloServer<GatewayContext>['executeHTTPGraphQLRequest']> {
    const http = request.httpGraphQLRequest as HTTPGraphQLRequest;
    const refusal = refuseBatch(http, this.#maxOperations);
    if (refusal) return refusal;
    const response = await super.executeHTTPGraphQLRequest(request);
    // The operations share one head, where each one's cache-control (Apollo Server's, or the
    // subgraphs' through header rules) replaced the one before: the last one's is not the
    // batch's. A batch is as cacheable as its least cacheable answer; none is assumed.
    if (http.method === 'POST' && Array.isArray(http.body)) response.headers.set('cache-control', 'no-store');
    return response;
  }
}
