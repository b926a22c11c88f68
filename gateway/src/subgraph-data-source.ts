import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { Pool } from 'undici';
import type { GatewayContext } from './context.js';
import { ClientErrorCode } from './error-codes.js';
import { failedFetchErrors } from './fetch-error-paths.js';
import type { GatewayPlugin } from './plugins/types.js';

type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;
type ProcessOptions = GraphQLDataSourceProcessOptions<GatewayContext>;
type IncomingOperation = Extract<ProcessOptions, { incomingRequestContext: unknown }>;

// @apollo/gateway does not export its request-kind enum from the package root.
const isIncomingOperation = (options: ProcessOptions): options is IncomingOperation =>
  (options.kind as string) === 'incoming operation';

export interface SubgraphDataSourceOptions {
  /** Subgraph name, as in the supergraph; shown to clients in error messages (never the URL). */
  name: string;
  url: string;
  /** The fetch is aborted after this, and the affected fields get SUBGRAPH_TIMEOUT. */
  timeoutMs: number;
  /** Max sockets to this subgraph. */
  connections: number;
  /** Idle sockets are closed after this. Keep it below the subgraph's keep-alive timeout. */
  keepAliveMs: number;
  /** Plugins whose subgraph hooks run on every operation's request and response, in order. */
  plugins?: readonly GatewayPlugin[];
}

/**
 * Sends subgraph operations over one keep-alive undici Pool per subgraph, with
 * undici's low-level `request` API: measured here, @apollo/gateway's default fetcher
 * (make-fetch-happen) spends about a third of the gateway's CPU in its HTTP agent.
 */
export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  readonly #options: SubgraphDataSourceOptions;
  readonly #pool: Pool;
  readonly #path: string;
  #closed: Promise<void> | undefined;
  readonly #requestHooks: readonly GatewayPlugin[];
  readonly #responseHooks: readonly GatewayPlugin[];

  constructor(options: SubgraphDataSourceOptions) {
    this.#options = options;
    this.#requestHooks = (options.plugins ?? []).filter((plugin) => plugin.onSubgraphRequest);
    this.#responseHooks = (options.plugins ?? []).filter((plugin) => plugin.onSubgraphResponse);
    const url = new URL(options.url);
    this.#path = `${url.pathname}${url.search}`;
    this.#pool = new Pool(url.origin, {
      connections: options.connections,
      keepAliveTimeout: options.keepAliveMs,
      keepAliveMaxTimeout: options.keepAliveMs,
    });
  }

  async process(options: ProcessOptions): Promise<SubgraphResponse> {
    const { request } = options;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    };
    for (const [name, value] of request.http?.headers ?? []) headers[name] = value;
    const context = isIncomingOperation(options) ? options.context : undefined;
    if (context) {
      headers['x-request-id'] = context.requestId;
      for (const plugin of this.#requestHooks)
        plugin.onSubgraphRequest?.({ subgraph: this.#options.name, headers, context });
    }
    const body = JSON.stringify({
      query: request.query,
      operationName: request.operationName,
      variables: request.variables,
      ...(request.extensions ? { extensions: request.extensions } : {}),
    });

    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    try {
      const response = await this.#pool.request({ path: this.#path, method: 'POST', headers, body, signal });
      if (context) {
        for (const plugin of this.#responseHooks) {
          plugin.onSubgraphResponse?.({ subgraph: this.#options.name, headers: response.headers, context });
        }
      }
      const text = await response.body.text();
      const parsed = parseGraphQLResponse(text);
      if (parsed) return parsed;
      return this.#failure(
        options,
        ClientErrorCode.SUBGRAPH_BAD_RESPONSE,
        `answered HTTP ${response.statusCode} without a GraphQL response`,
      );
    } catch (error) {
      if (signal.aborted) {
        return this.#failure(
          options,
          ClientErrorCode.SUBGRAPH_TIMEOUT,
          `did not answer within ${this.#options.timeoutMs} ms`,
        );
      }
      return this.#failure(options, ClientErrorCode.SUBGRAPH_UNAVAILABLE, `is unavailable (${errorCode(error)})`);
    }
  }

  /** Closes the pool once in-flight requests finish; safe to call more than once. */
  close(): Promise<void> {
    this.#closed ??= this.#pool.close();
    return this.#closed;
  }

  #failure(options: ProcessOptions, code: ClientErrorCode, what: string): SubgraphResponse {
    const message = `Subgraph "${this.#options.name}" ${what}.`;
    return { errors: failedFetchErrors(options.request.query, options.request.variables, message, { code }) };
  }
}

function parseGraphQLResponse(text: string): SubgraphResponse | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && ('data' in parsed || 'errors' in parsed)) {
      return parsed as SubgraphResponse;
    }
  } catch {
    // not JSON: reported as a bad response by the caller
  }
  return undefined;
}

/** A short, URL-free reason such as ECONNREFUSED, safe to show a client. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'connection failed';
}
