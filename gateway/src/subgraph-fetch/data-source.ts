import type { IncomingHttpHeaders } from 'node:http';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { FetchedSubgraphResult, GatewayContext, SubgraphRequest } from '../contract/index.js';
import { InFlight, inFlightKey } from '../dedup/in-flight.js';
import { dedupeRepresentations } from '../dedup/representations.js';
import { shareableHeaders } from '../dedup/shareable-headers.js';
import { ClientErrorCode, codeExtensions } from '../error-registry.js';
import { failedFetchErrors } from '../fetch-error-paths.js';
import { REQUEST_ID_HEADER } from '../header-names.js';
import { isQueryFetch } from '../resilience/retry-policy.js';
import type { SubgraphErrors } from '../subgraph-overrides.js';
import { multipartBodyFor } from '../uploads/multipart-body.js';
import { ObservedAttempts } from './attempt-observers.js';
import { deliver } from './deliver.js';
import { FetchReports } from './fetch-reports.js';
import { type OutgoingRequest, SubgraphHttp } from './http-attempt.js';
import type { SubgraphDataSourceOptions } from './options.js';
import type { Failure, Fetched, Report, SubgraphAnswer } from './outcomes.js';
import { type Attempter, RetryingFetch } from './retrying-fetch.js';
import { redactSubgraphErrors } from './subgraph-errors.js';
import { SubgraphHooks } from './subgraph-hooks.js';

export type { SubgraphDataSourceOptions } from './options.js';

type ProcessOptions = GraphQLDataSourceProcessOptions<GatewayContext>;

/** What a fetch inside `aroundSubgraphFetch` hooks saw besides the answer. */
interface FetchNote {
  headers: IncomingHttpHeaders;
  fromSubgraph: boolean;
}
type IncomingOperation = Extract<ProcessOptions, { incomingRequestContext: unknown }>;

// @apollo/gateway does not export its request-kind enum from the package root.
const isIncomingOperation = (options: ProcessOptions): options is IncomingOperation =>
  (options.kind as string) === 'incoming operation';

/** Ours, not the plain context another Apollo Server (startStandaloneServer) gives its gateway. */
const gatewayContextOf = (options: ProcessOptions): GatewayContext | undefined =>
  isIncomingOperation(options) && (options.context as Partial<GatewayContext> | undefined)?.responseBudget
    ? options.context
    : undefined;

/**
 * One subgraph, as @apollo/gateway sees it. `process` is the hot path: the steps a subgraph
 * request goes through, in order, each one a part of this folder or of dedup/ and resilience/.
 */
export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  readonly #options: SubgraphDataSourceOptions;
  readonly #maxResponseBytes: number;
  readonly #http: SubgraphHttp;
  /** `#http`, or it observed by the plugins' `onSubgraphAttempt` when one has it (tracing). */
  readonly #attempts: Attempter<OutgoingRequest>;
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
    // Checks the retry and breaker options first: a bad one throws before any pool exists.
    this.#fetches = new RetryingFetch({
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      circuitBreaker: options.circuitBreaker,
      onCircuitChange: (state) => this.#reports.circuitChanged(state),
      onRetry: (attempt, code) => this.#reports.retried(attempt, code),
      now: options.now,
    });
    if (options.deduplicate) this.#inFlight = new InFlight();
    this.#http = new SubgraphHttp(options.url, {
      connections: options.connections,
      keepAliveMs: options.keepAliveMs,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: this.#maxResponseBytes,
    });
    const observers = plugins.filter((plugin) => plugin.onSubgraphAttempt);
    this.#attempts =
      observers.length > 0
        ? new ObservedAttempts(this.#http, options.name, options.url, observers, options.logger)
        : this.#http;
  }

  /** The subgraph's URL (an override's, when one is set); its subscriptions use the same host and path. */
  get url(): string {
    return this.#options.url;
  }

  /** Its timeout (SUBGRAPH_<NAME>_TIMEOUT_MS, else SUBGRAPH_TIMEOUT_MS): its subscriptions connect within it too. */
  get timeoutMs(): number {
    return this.#options.timeoutMs;
  }

  /** Its answer size limit (SUBGRAPH_<NAME>_MAX_RESPONSE_BYTES, else the global one): each subscription event too. */
  get maxResponseBytes(): number {
    return this.#maxResponseBytes;
  }

  async process(options: ProcessOptions): Promise<SubgraphAnswer> {
    const { request } = options;
    const startedAt = performance.now();
    const context = gatewayContextOf(options);
    // 1. The response budget: an answer already too large to send needs nothing more from a subgraph.
    if (context?.responseBudget.exceeded) {
      return this.#failure(request, {
        code: ClientErrorCode.RESPONSE_TOO_LARGE,
        what: 'was not asked: the response is already over its size limit',
      });
    }
    // 2. Headers, then the plugins' request hooks (subgraph-hooks.ts), which may answer instead of the subgraph.
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    };
    for (const [name, value] of request.http?.headers ?? []) headers[name] = value;
    const wrappers = this.#hooks.fetchWrappers;
    const asked: SubgraphRequest | undefined =
      context && (this.#hooks.hasRequestHooks || wrappers.length > 0)
        ? {
            subgraph: this.#options.name,
            headers,
            context,
            query: request.query ?? '',
            operationName: request.operationName,
            variables: request.variables,
          }
        : undefined;
    if (context && asked && this.#hooks.hasRequestHooks) {
      let hooked = this.#hooks.request(asked);
      // Awaited only when a hook answered with a Promise: synchronous hooks cost no extra turn.
      if (hooked instanceof Promise) hooked = await hooked;
      if (hooked && 'failure' in hooked) return this.#failure(request, hooked.failure, { context, startedAt });
      if (hooked) {
        const failed = this.#hooks.response(context, {}, hooked.result, hooked.answeredBy);
        return failed ? this.#failure(request, failed) : (hooked.result as SubgraphAnswer);
      }
    }
    // Set after the hooks: a header rule propagating `x-` headers must not replace the gateway's id.
    if (context) headers[REQUEST_ID_HEADER] = context.requestId;
    if (context && asked && wrappers.length > 0) return await this.#wrapped(options, asked, context, startedAt);
    // `return await`: one microtask for a native promise, where returning it costs three.
    return await this.#fetch(options, request.variables, headers, context, startedAt);
  }

  /** Steps 3 to 6 with these variables (a wrapper may narrow them); `seen` receives the headers, when given. */
  async #fetch(
    options: ProcessOptions,
    variables: Record<string, unknown> | undefined,
    headers: Record<string, string>,
    context: GatewayContext | undefined,
    startedAt: number,
    seen?: FetchNote,
  ): Promise<SubgraphAnswer> {
    const { query, operationName, extensions } = options.request;
    // 3. The body: repeated entities are asked for once (dedup/representations.ts).
    const entities =
      this.#options.deduplicateRepresentations === false ? undefined : dedupeRepresentations(query, variables);
    const body = JSON.stringify({
      query,
      operationName,
      variables: entities?.variables ?? variables,
      ...(extensions ? { extensions } : {}),
    });
    // 4. The fetch: HTTP attempts (http-attempt.ts) under retries and the circuit breaker
    // (retrying-fetch.ts), shared with identical queries in flight (dedup/in-flight.ts).
    let fetched: Fetched;
    let joined = false;
    if (this.#inFlight && isQueryFetch(options)) {
      // The budget is charged per caller below, so a shared read is bounded by the subgraph limit only.
      const shared = this.#inFlight.run(inFlightKey(body, headers), () =>
        this.#fetches.run(true, this.#attempts, {
          headers,
          body,
          readLimit: this.#maxResponseBytes,
          keepText: true,
          context: undefined,
        }),
      );
      joined = shared.joined;
      fetched = await shared.result;
    } else {
      const readLimit = Math.min(this.#maxResponseBytes, (context?.responseBudget.remaining ?? Infinity) + 1);
      // A mutation's files (uploads/): a multipart body, its files streamed from the client's request.
      const upload = isQueryFetch(options) ? undefined : multipartBodyFor(body, variables);
      const send = upload
        ? { headers: { ...headers, ...upload.headers }, body: upload.body, readLimit, keepText: false, context }
        : { headers, body, readLimit, keepText: false, context };
      fetched = await this.#fetches.run(isQueryFetch(options), this.#attempts, send);
    }
    // 5. This caller's answer: its response hooks and budget (deliver.ts).
    const report = { context, startedAt, retries: fetched.retries, joined };
    const response = deliver(fetched, context, joined, this.#hooks, this.#maxResponseBytes);
    // From the original variables: one error per original position, as without deduplication.
    if ('failure' in response) return this.#failure({ query, variables }, response.failure, report);
    // 6. Events and logs (fetch-reports.ts), and the entities spread back over their positions.
    this.#reports.fetched('ok', report);
    if (seen && 'received' in fetched) {
      seen.headers = joined ? shareableHeaders(fetched.received.headers) : fetched.received.headers;
      seen.fromSubgraph = true;
    }
    // 7. What clients may read of the subgraph's own errors (SUBGRAPH_ERRORS, subgraph-errors.ts).
    const answer = this.#shownErrors(response.answer, context);
    return entities ? entities.expand(answer) : answer;
  }

  /** The fetch inside the plugins' `aroundSubgraphFetch` hooks, the first plugin's outermost. */
  async #wrapped(
    options: ProcessOptions,
    asked: SubgraphRequest,
    context: GatewayContext,
    startedAt: number,
  ): Promise<SubgraphAnswer> {
    const wrappers = this.#hooks.fetchWrappers;
    const through = async (index: number, variables: ProcessOptions['request']['variables']) => {
      const plugin = wrappers[index];
      if (!plugin?.aroundSubgraphFetch) {
        const seen: FetchNote = { headers: {}, fromSubgraph: false };
        const answer = await this.#fetch(options, variables, asked.headers, context, startedAt, seen);
        return { result: answer, headers: seen.headers, fromSubgraph: seen.fromSubgraph };
      }
      let inner: FetchedSubgraphResult | undefined;
      const fetch = async (narrowed?: Readonly<Record<string, unknown>>) => {
        inner = await through(index + 1, (narrowed ?? variables) as Record<string, unknown> | undefined);
        return inner;
      };
      try {
        const result = await plugin.aroundSubgraphFetch(asked, fetch);
        // Answered without the subgraph (a whole cache hit): the response hooks still see it.
        const failed = inner ? undefined : this.#hooks.response(context, {}, result, plugin.name);
        if (failed) return { result: this.#failure(options.request, failed), headers: {}, fromSubgraph: false };
        return { result, headers: inner?.headers ?? {}, fromSubgraph: inner?.fromSubgraph ?? false };
      } catch (error) {
        const failure = this.#hooks.wrapperFailed(plugin, context, error);
        return {
          result: this.#failure(options.request, failure, { context, startedAt }),
          headers: {},
          fromSubgraph: false,
        };
      }
    };
    return (await through(0, options.request.variables)).result as SubgraphAnswer;
  }

  /** The errors a failed fetch leaves on every field it would have filled (reported when `report` is given). */
  #failure(
    request: { query?: string; variables?: Record<string, unknown> },
    failure: Failure,
    report?: Report,
  ): SubgraphAnswer {
    if (report) this.#reports.failed(failure, report);
    const message = `Subgraph "${this.#options.name}" ${failure.what}.`;
    return {
      errors: failedFetchErrors(
        request.query,
        request.variables,
        message,
        codeExtensions(failure.code, failure.legacyCode),
      ),
    };
  }

  /** SUBGRAPH_ERRORS (SUBGRAPH_<NAME>_ERRORS): what clients see of the errors this subgraph writes. */
  get errors(): SubgraphErrors {
    return this.#options.errors ?? 'mask';
  }

  /** The subgraph's answer with its errors as clients may see them; what was redacted is logged at debug. */
  #shownErrors(answer: SubgraphAnswer, context: GatewayContext | undefined): SubgraphAnswer {
    const shown = redactSubgraphErrors(answer.errors, this.errors);
    if (!shown) return answer;
    this.#options.logger?.debug(
      {
        subgraph: this.#options.name,
        requestId: context?.requestId,
        errors: answer.errors?.map((error) => ({ message: error.message, code: error.extensions?.code })),
      },
      'subgraph errors redacted',
    );
    return { ...answer, errors: shown };
  }

  /** Closes the pool once in-flight requests finish; safe to call more than once. */
  close(): Promise<void> {
    this.#closed ??= this.#http.close();
    return this.#closed;
  }
}
