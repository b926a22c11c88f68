import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayContext, GatewayPlugin } from '../contract/index.js';
import { InFlight, inFlightKey } from '../dedup/in-flight.js';
import { dedupeRepresentations } from '../dedup/representations.js';
import { shareableHeaders } from '../dedup/shareable-headers.js';
import { ClientErrorCode } from '../error-registry.js';
import { failedFetchErrors } from '../fetch-error-paths.js';
import { REQUEST_ID_HEADER } from '../header-names.js';
import type { Logger } from '../logger.js';
import type { CircuitBreakerOptions } from '../resilience/circuit-breaker.js';
import { isQueryFetch, type SubgraphRetryOptions } from '../resilience/retry-policy.js';
import { FetchReports } from './fetch-reports.js';
import { SubgraphHttp } from './http-attempt.js';
import {
  badResponse,
  type Failure,
  type Fetched,
  parseGraphQLResponse,
  type Report,
  type SubgraphAnswer,
  tooLarge,
} from './outcomes.js';
import { RetryingFetch } from './retrying-fetch.js';
import { SubgraphHooks } from './subgraph-hooks.js';

type ProcessOptions = GraphQLDataSourceProcessOptions<GatewayContext>;
type IncomingOperation = Extract<ProcessOptions, { incomingRequestContext: unknown }>;

// @apollo/gateway does not export its request-kind enum from the package root.
const isIncomingOperation = (options: ProcessOptions): options is IncomingOperation =>
  (options.kind as string) === 'incoming operation';

/** Ours, not the plain context another Apollo Server (startStandaloneServer) gives its gateway. */
const gatewayContextOf = (options: ProcessOptions): GatewayContext | undefined =>
  isIncomingOperation(options) && (options.context as Partial<GatewayContext> | undefined)?.responseBudget
    ? options.context
    : undefined;

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
  /** Larger answers are aborted mid-read and the affected fields get SUBGRAPH_RESPONSE_TOO_LARGE. Default: no limit. */
  maxResponseBytes?: number;
  /** Plugins whose subgraph hooks run on every operation's request and response, in order. */
  plugins?: readonly GatewayPlugin[];
  /** Failed fetches (code, duration, request id; never a body) and plugin hook failures are logged here. */
  logger?: Logger;
  /**
   * Retries of failed fetches that belong to client queries (never mutations), within
   * `timeoutMs` and a retry budget. Default: no retries.
   */
  retry?: SubgraphRetryOptions;
  /** A circuit breaker for this subgraph; it answers SUBGRAPH_CIRCUIT_OPEN while open. Default: none. */
  circuitBreaker?: CircuitBreakerOptions;
  /**
   * Identical query fetches in flight at the same time (same body, same headers but the
   * request id and trace context) share one request; each caller gets its own copy.
   * Never mutations. Default: false.
   */
  deduplicate?: boolean;
  /**
   * Repeated `_entities` representations in one fetch are sent once and the answers spread
   * back over every position (dedup/representations.ts). Default: true.
   */
  deduplicateRepresentations?: boolean;
}

/**
 * One subgraph, as @apollo/gateway sees it. `process` is the hot path, in the order a
 * request goes: the response budget, the plugins' request hooks (which may answer), the
 * request (repeated entities asked once), in-flight deduplication, the fetch (HTTP attempts
 * under retries and the circuit breaker: http-attempt.ts, retrying-fetch.ts), the plugins'
 * response hooks and the budget per caller, then events and logs (fetch-reports.ts).
 */
export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  readonly #options: SubgraphDataSourceOptions;
  readonly #maxResponseBytes: number;
  readonly #http: SubgraphHttp;
  readonly #fetches: RetryingFetch;
  readonly #reports: FetchReports;
  readonly #hooks: SubgraphHooks;
  readonly #inFlight: InFlight<Fetched> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: SubgraphDataSourceOptions) {
    this.#options = options;
    this.#maxResponseBytes = options.maxResponseBytes ?? Number.POSITIVE_INFINITY;
    const plugins = options.plugins ?? [];
    this.#reports = new FetchReports(options.name, plugins, options.logger);
    this.#hooks = new SubgraphHooks(options.name, plugins, options.logger);
    this.#fetches = new RetryingFetch({
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      circuitBreaker: options.circuitBreaker,
      onCircuitChange: (state) => this.#reports.circuitChanged(state),
      onRetry: (attempt, code) => this.#reports.retried(attempt, code),
    });
    if (options.deduplicate) this.#inFlight = new InFlight();
    this.#http = new SubgraphHttp(options.url, options);
  }

  async process(options: ProcessOptions): Promise<SubgraphAnswer> {
    const { request } = options;
    const startedAt = performance.now();
    const context = gatewayContextOf(options);
    if (context?.responseBudget.exceeded) {
      // The answer is already too large to send: do not ask a subgraph for more of it.
      return this.#failure(request, {
        code: ClientErrorCode.RESPONSE_TOO_LARGE,
        what: 'was not asked: the response is already over its size limit',
      });
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    };
    for (const [name, value] of request.http?.headers ?? []) headers[name] = value;
    if (context && this.#hooks.hasRequestHooks) {
      const hooked = this.#hooks.request({
        subgraph: this.#options.name,
        headers,
        context,
        query: request.query ?? '',
        operationName: request.operationName,
        variables: request.variables,
      });
      if (hooked && 'failure' in hooked) return this.#failure(request, hooked.failure, { context, startedAt });
      if (hooked) {
        const failed = this.#hooks.response(context, {}, hooked.result, hooked.answeredBy);
        return failed ? this.#failure(request, failed) : (hooked.result as SubgraphAnswer);
      }
    }
    // Set after the hooks: a header rule propagating `x-` headers must not replace the gateway's id.
    if (context) headers[REQUEST_ID_HEADER] = context.requestId;
    // Repeated entities are asked for once; the answer is spread back over their positions.
    const entities =
      this.#options.deduplicateRepresentations === false
        ? undefined
        : dedupeRepresentations(request.query, request.variables);
    const body = JSON.stringify({
      query: request.query,
      operationName: request.operationName,
      variables: entities?.variables ?? request.variables,
      ...(request.extensions ? { extensions: request.extensions } : {}),
    });

    let fetched: Fetched;
    let joined = false;
    if (this.#inFlight && isQueryFetch(options)) {
      // The budget is charged per caller below, so a shared read is bounded by the subgraph limit only.
      const shared = this.#inFlight.run(inFlightKey(body, headers), () =>
        this.#fetch(options, headers, body, undefined, this.#maxResponseBytes, true),
      );
      joined = shared.joined;
      fetched = await shared.result;
    } else {
      const limit = Math.min(this.#maxResponseBytes, (context?.responseBudget.remaining ?? Infinity) + 1);
      fetched = await this.#fetch(options, headers, body, context, limit, false);
    }
    const report = { context, startedAt, retries: fetched.retries, joined };
    const response = this.#deliver(fetched, context, joined);
    // From the original variables: one error per original position, as without deduplication.
    if ('failure' in response) return this.#failure(request, response.failure, report);
    this.#reports.fetched('ok', report);
    return entities ? entities.expand(response.answer) : response.answer;
  }

  /** One fetch: HTTP attempts under retries and the circuit breaker. `context`: whose budget a too-large answer spends. */
  #fetch(
    options: ProcessOptions,
    headers: Record<string, string>,
    body: string,
    context: GatewayContext | undefined,
    readLimit: number,
    shared: boolean,
  ): Promise<Fetched> {
    const send = {
      headers,
      body,
      readLimit,
      keepText: shared,
      tooLarge: (status: number) => tooLarge(this.#maxResponseBytes, context, status),
    };
    return this.#fetches.run(isQueryFetch(options), (signal, retryDelay) => this.#http.send(send, signal, retryDelay));
  }

  /**
   * Hands one caller its answer: its own response hooks and response budget, and its own
   * objects (a caller that joined a shared fetch parses the shared text again, which is
   * cheaper than a structured clone, and @apollo/gateway mutates what it is given).
   */
  #deliver(
    fetched: Fetched,
    context: GatewayContext | undefined,
    joined: boolean,
  ): { answer: SubgraphAnswer } | { failure: Failure } {
    if ('failure' in fetched) return fetched;
    const { received } = fetched;
    if (context) {
      // A caller that joined another's fetch gets only the headers about the answer, never its cookies.
      const headers = joined ? shareableHeaders(received.headers) : received.headers;
      const failed = this.#hooks.response(context, headers, received.answer);
      if (failed) return { failure: failed };
      if (!context.responseBudget.take(received.bytes)) {
        return { failure: tooLarge(this.#maxResponseBytes, context, received.status) };
      }
    }
    if (!joined) return { answer: received.answer };
    const answer = parseGraphQLResponse(received.text ?? '');
    // Cannot happen (the same text parsed for the first caller); answered as a bad response all the same.
    if (!answer) return { failure: badResponse(received.status) };
    return { answer };
  }

  /** The errors a failed fetch leaves on every field it would have filled (reported when `report` is given). */
  #failure(
    request: { query?: string; variables?: Record<string, unknown> },
    failure: Failure,
    report?: Report,
  ): SubgraphAnswer {
    if (report) this.#reports.failed(failure, report);
    const message = `Subgraph "${this.#options.name}" ${failure.what}.`;
    return { errors: failedFetchErrors(request.query, request.variables, message, { code: failure.code }) };
  }

  /** Closes the pool once in-flight requests finish; safe to call more than once. */
  close(): Promise<void> {
    this.#closed ??= this.#http.close();
    return this.#closed;
  }
}
