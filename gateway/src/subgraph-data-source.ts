import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { Pool } from 'undici';
import type { CircuitState, GatewayContext, GatewayPlugin } from './contract/index.js';
import { InFlight, inFlightKey } from './dedup/in-flight.js';
import { dedupeRepresentations } from './dedup/representations.js';
import { shareableHeaders } from './dedup/shareable-headers.js';
import { ClientErrorCode } from './error-registry.js';
import { emitEvent } from './events.js';
import { failedFetchErrors } from './fetch-error-paths.js';
import { LogThrottle } from './log-throttle.js';
import type { Logger } from './logger.js';
import { discardBody, readBoundedBody, TOO_LARGE } from './read-bounded-body.js';
import { fullJitterDelay } from './resilience/backoff.js';
import { CircuitBreaker, type CircuitBreakerOptions } from './resilience/circuit-breaker.js';
import { RetryBudget } from './resilience/retry-budget.js';
import {
  checkRetryOptions,
  isQueryFetch,
  isRetryableConnectionError,
  isRetryableStatus,
  type SubgraphRetryOptions,
} from './resilience/retry-policy.js';

type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;
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

/**
 * Request bodies of more bytes than this go on a connection that is closed after the answer.
 * A subgraph (or a proxy in front of it) may answer such a request early (413, 401)
 * without reading the whole body; the unread bytes would then sit in front of the next
 * request on a reused socket, which would hang until its timeout.
 */
const REUSE_MAX_BODY_BYTES = 64 * 1024;

/** Bytes, not characters: a body of 30,000 `€` is 90 KB on the wire. Counted only near the limit. */
function closesAfter(body: string): boolean {
  if (body.length > REUSE_MAX_BODY_BYTES) return true;
  return body.length * 3 > REUSE_MAX_BODY_BYTES && Buffer.byteLength(body) > REUSE_MAX_BODY_BYTES;
}
/** At most this many "subgraph fetch failed" lines per subgraph per interval. */
const FAILURE_LOG_LIMIT = 10;
const FAILURE_LOG_INTERVAL_MS = 10_000;
/** At most this many circuit state lines per subgraph per minute (a flapping subgraph). */
const CIRCUIT_LOG_LIMIT = 10;
const CIRCUIT_LOG_INTERVAL_MS = 60_000;
/**
 * A retry is sent only if, after its backoff, at least this share of the timeout is left:
 * with less, it would most likely turn the failure the client gets into SUBGRAPH_TIMEOUT.
 */
const RETRY_MIN_TIME_SHARE = 0.1;

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

interface Failure {
  code: ClientErrorCode;
  /** Completes "Subgraph "users" …" in the message clients see; never a URL or a body. */
  what: string;
  /** Extra fields for the log line (HTTP status, error name). */
  detail?: Record<string, unknown>;
}

/** An HTTP answer read whole that holds a GraphQL response. */
interface Received {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: number;
  readonly answer: SubgraphResponse;
  /** The body, kept when the fetch is shared so each further caller parses its own copy. */
  readonly text?: string;
}

/** How one HTTP attempt ended. */
type Attempt =
  | { received: Received; unhealthy: boolean }
  | {
      failure: Failure;
      /** Counts as a failure of the subgraph for the circuit breaker. */
      unhealthy: boolean;
      /** Set when the attempt is to be retried after this wait (its budget already taken). */
      retryInMs?: number;
    };

/** How a fetch ended, after its retries. */
type Fetched = ({ received: Received } | { failure: Failure }) & { readonly retries: number };

/** What a caller's `subgraph-fetch` event and failure log line say. */
interface Report {
  context: GatewayContext | undefined;
  startedAt: number;
  retries?: number;
  /** The caller joined a fetch another caller started (in-flight deduplication). */
  joined?: boolean;
}

/** One fetch across its attempts. */
interface FetchState {
  readonly retryable: boolean;
  /** When the fetch's time (SUBGRAPH_TIMEOUT_MS) runs out, on the `performance.now()` clock. */
  readonly deadlineAt: number;
  retries: number;
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
  readonly #maxResponseBytes: number;
  #closed: Promise<void> | undefined;
  readonly #requestHooks: readonly GatewayPlugin[];
  readonly #responseHooks: readonly GatewayPlugin[];
  readonly #observers: readonly GatewayPlugin[];
  readonly #failureLog = new LogThrottle(FAILURE_LOG_LIMIT, FAILURE_LOG_INTERVAL_MS);
  readonly #circuitLog = new LogThrottle(CIRCUIT_LOG_LIMIT, CIRCUIT_LOG_INTERVAL_MS);
  readonly #retryBudget: RetryBudget | undefined;
  readonly #breaker: CircuitBreaker | undefined;
  readonly #inFlight: InFlight<Fetched> | undefined;

  constructor(options: SubgraphDataSourceOptions) {
    this.#options = options;
    this.#maxResponseBytes = options.maxResponseBytes ?? Number.POSITIVE_INFINITY;
    this.#requestHooks = (options.plugins ?? []).filter((plugin) => plugin.onSubgraphRequest);
    this.#responseHooks = (options.plugins ?? []).filter((plugin) => plugin.onSubgraphResponse);
    this.#observers = (options.plugins ?? []).filter((plugin) => plugin.onEvent);
    if (options.retry) {
      checkRetryOptions(options.retry);
      this.#retryBudget = new RetryBudget({
        ratio: options.retry.budgetRatio,
        minPerSecond: options.retry.budgetMinPerSecond,
      });
    }
    if (options.circuitBreaker) {
      this.#breaker = new CircuitBreaker(options.circuitBreaker, {
        onStateChange: (state) => this.#circuitChanged(state),
      });
    }
    if (options.deduplicate) this.#inFlight = new InFlight();
    const url = new URL(options.url);
    this.#path = `${url.pathname}${url.search}`;
    this.#pool = new Pool(url.origin, {
      // undici 8 negotiates HTTP/2 over TLS by default; stay on HTTP/1.1 so `connections` still
      // bounds sockets per subgraph (SUBGRAPH_POOL_CONNECTIONS) as with undici 7.
      allowH2: false,
      connections: options.connections,
      keepAliveTimeout: options.keepAliveMs,
      keepAliveMaxTimeout: options.keepAliveMs,
    });
  }

  async process(options: ProcessOptions): Promise<SubgraphResponse> {
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
    if (context) {
      const failed = this.#runHooks(this.#requestHooks, context, (plugin) =>
        plugin.onSubgraphRequest?.({ subgraph: this.#options.name, headers, context }),
      );
      if (failed) return this.#failure(request, failed, { context, startedAt });
      // Set after the hooks: a header rule propagating `x-` headers must not replace the gateway's id.
      headers['x-request-id'] = context.requestId;
    }
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
        this.#fetch(options, headers, body, context, this.#maxResponseBytes, true),
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
    this.#fetched('ok', report);
    return entities ? entities.expand(response.answer) : response.answer;
  }

  /** One fetch across its attempts, retries and the circuit breaker: a received answer or the failure. */
  async #fetch(
    options: ProcessOptions,
    headers: Record<string, string>,
    body: string,
    context: GatewayContext | undefined,
    readLimit: number,
    shared: boolean,
  ): Promise<Fetched> {
    // One deadline for every attempt and backoff: retries never make a client wait past the timeout.
    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    const fetch: FetchState = {
      retryable: (this.#options.retry?.maxRetries ?? 0) > 0 && isQueryFetch(options),
      deadlineAt: performance.now() + this.#options.timeoutMs,
      retries: 0,
    };
    this.#retryBudget?.recordRequest();
    let failure: Failure | undefined;
    for (let attempt = 1; ; attempt++) {
      const permit = this.#breaker?.acquire();
      if (this.#breaker && !permit) {
        // A retry the breaker refuses leaves the client the failure it retried.
        const refused: Failure = {
          code: ClientErrorCode.SUBGRAPH_CIRCUIT_OPEN,
          what: 'was not asked: it has been failing and its circuit breaker is open',
        };
        return { failure: failure ?? refused, retries: fetch.retries };
      }
      let outcome: Attempt | undefined;
      try {
        outcome = await this.#attempt(headers, body, signal, context, readLimit, shared, () =>
          this.#retryDelay(fetch, attempt),
        );
      } finally {
        // Always handed back: a half-open breaker waits for its probe's outcome.
        if (permit) this.#breaker?.record(permit, outcome?.unhealthy ?? true);
      }
      if ('received' in outcome) return { received: outcome.received, retries: fetch.retries };
      failure = outcome.failure;
      if (outcome.retryInMs === undefined || (this.#breaker && !this.#breaker.allows())) {
        return { failure, retries: fetch.retries };
      }
      emitEvent(
        this.#observers,
        { type: 'subgraph-retry', subgraph: this.#options.name, attempt, code: failure.code },
        this.#options.logger,
      );
      await sleep(outcome.retryInMs);
      fetch.retries++;
    }
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
  ): { answer: SubgraphResponse } | { failure: Failure } {
    if ('failure' in fetched) return fetched;
    const { received } = fetched;
    if (context) {
      // A caller that joined another's fetch gets only the headers about the answer, never its cookies.
      const headers = joined ? shareableHeaders(received.headers) : received.headers;
      const failed = this.#runHooks(this.#responseHooks, context, (plugin) =>
        plugin.onSubgraphResponse?.({ subgraph: this.#options.name, headers, context }),
      );
      if (failed) return { failure: failed };
      if (!context.responseBudget.take(received.bytes)) return { failure: this.#tooLarge(context, received.status) };
    }
    if (!joined) return { answer: received.answer };
    const answer = parseGraphQLResponse(received.text ?? '');
    // Cannot happen (the same text parsed for the first caller); answered as a bad response all the same.
    if (!answer) return { failure: badResponse(received.status) };
    return { answer };
  }

  /**
   * Sends the request once and reads the answer up to `readLimit` bytes. `retryDelay` is
   * asked when a failure may be retried (no answer, or 502/503): it gives the wait before
   * the retry, or undefined for none.
   */
  async #attempt(
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
    context: GatewayContext | undefined,
    readLimit: number,
    shared: boolean,
    retryDelay: () => number | undefined,
  ): Promise<Attempt> {
    let answered = false;
    try {
      const response = await this.#pool.request({
        path: this.#path,
        method: 'POST',
        headers,
        body,
        signal,
        reset: closesAfter(body),
      });
      answered = true;
      if (isRetryableStatus(response.statusCode)) {
        const failure: Failure = {
          code: ClientErrorCode.SUBGRAPH_BAD_RESPONSE,
          what: `answered HTTP ${response.statusCode}`,
          detail: { status: response.statusCode },
        };
        const retryInMs = retryDelay();
        if (retryInMs !== undefined) {
          discardBody(response.body);
          return { failure, unhealthy: true, retryInMs };
        }
      }
      const read = await readBoundedBody(response.body, response.headers, readLimit);
      if (read === TOO_LARGE) {
        // A shared read is bounded by the subgraph limit alone: no caller's budget is spent by it.
        return { failure: this.#tooLarge(shared ? undefined : context, response.statusCode), unhealthy: false };
      }
      const parsed = parseGraphQLResponse(read.text);
      // A 4xx that is not a GraphQL answer refused this request (a header or body a client made
      // too large, a forwarded credential): it says nothing about the subgraph's health, and one
      // client must not be able to open everyone's circuit breaker with it.
      if (!parsed)
        return { failure: badResponse(response.statusCode), unhealthy: !isRequestRefusal(response.statusCode) };
      return {
        received: {
          status: response.statusCode,
          headers: response.headers,
          bytes: read.bytes,
          answer: parsed,
          ...(shared && { text: read.text }),
        },
        // A GraphQL answer with a 5xx status is passed on, but still says the subgraph is unwell.
        unhealthy: response.statusCode >= 500,
      };
    } catch (error) {
      if (signal.aborted) {
        // Not retried: the fetch's time is spent (see README, "what is retried").
        const what = `did not answer within ${this.#options.timeoutMs} ms`;
        return { failure: { code: ClientErrorCode.SUBGRAPH_TIMEOUT, what }, unhealthy: true };
      }
      const code = errorCode(error);
      const failure: Failure = {
        code: ClientErrorCode.SUBGRAPH_UNAVAILABLE,
        what: `is unavailable (${code})`,
        detail: { error: code },
      };
      // Only before any answer: a connection that broke mid-body had the work done once already.
      const retryInMs = !answered && isRetryableConnectionError(code) ? retryDelay() : undefined;
      return { failure, unhealthy: true, ...(retryInMs !== undefined && { retryInMs }) };
    }
  }

  /** The wait before retrying `attempt`, or undefined when it must not be retried; takes the budget. */
  #retryDelay(fetch: FetchState, attempt: number): number | undefined {
    const retry = this.#options.retry;
    if (!retry || !fetch.retryable || fetch.retries >= retry.maxRetries) return undefined;
    const delay = fullJitterDelay(attempt, retry.backoffMs);
    const left = fetch.deadlineAt - performance.now() - delay;
    if (left < this.#options.timeoutMs * RETRY_MIN_TIME_SHARE) return undefined;
    if (this.#breaker && !this.#breaker.allows()) return undefined;
    return this.#retryBudget?.tryWithdraw() ? delay : undefined;
  }

  /** Closes the pool once in-flight requests finish; safe to call more than once. */
  close(): Promise<void> {
    this.#closed ??= this.#pool.close();
    return this.#closed;
  }

  #tooLarge(context: GatewayContext | undefined, status: number): Failure {
    if (this.#maxResponseBytes <= (context?.responseBudget.remaining ?? Infinity)) {
      return {
        code: ClientErrorCode.SUBGRAPH_RESPONSE_TOO_LARGE,
        what: `answered with more than ${this.#maxResponseBytes} bytes`,
        detail: { status },
      };
    }
    context?.responseBudget.exceed();
    return {
      code: ClientErrorCode.RESPONSE_TOO_LARGE,
      what: 'answered past the response size limit',
      detail: { status },
    };
  }

  /**
   * Runs one kind of plugin hook. A hook that throws is a bug in that plugin, not a
   * subgraph outage: it is logged with the plugin's name and answered as an internal error.
   */
  #runHooks(
    plugins: readonly GatewayPlugin[],
    context: GatewayContext,
    run: (plugin: GatewayPlugin) => void,
  ): Failure | undefined {
    for (const plugin of plugins) {
      try {
        run(plugin);
      } catch (error) {
        this.#options.logger?.error(
          { err: error, plugin: plugin.name, subgraph: this.#options.name, requestId: context.requestId },
          'plugin subgraph hook failed',
        );
        return { code: ClientErrorCode.INTERNAL_SERVER_ERROR, what: `request failed in the ${plugin.name} plugin` };
      }
    }
    return undefined;
  }

  /** The errors a failed fetch leaves on every field it would have filled (reported when `report` is given). */
  #failure(
    request: { query?: string; variables?: Record<string, unknown> },
    failure: Failure,
    report?: Report,
  ): SubgraphResponse {
    if (report && failure.code !== ClientErrorCode.INTERNAL_SERVER_ERROR) {
      // An open circuit is logged once, when it opens, not once per refused fetch; a shared
      // fetch's failure once, by the caller that sent it.
      if (failure.code !== ClientErrorCode.SUBGRAPH_CIRCUIT_OPEN && !report.joined) this.#logFailure(failure, report);
      this.#fetched(failure.code, report);
    }
    const message = `Subgraph "${this.#options.name}" ${failure.what}.`;
    return { errors: failedFetchErrors(request.query, request.variables, message, { code: failure.code }) };
  }

  /** Tells observing plugins (metrics, tracing) how the fetch ended, once per caller. */
  #fetched(outcome: 'ok' | ClientErrorCode, report: Report): void {
    if (this.#observers.length === 0) return;
    const { context, startedAt, retries = 0, joined } = report;
    emitEvent(
      this.#observers,
      {
        type: 'subgraph-fetch',
        subgraph: this.#options.name,
        durationMs: performance.now() - startedAt,
        outcome,
        retries,
        ...(context && { requestId: context.requestId }),
        ...(joined && { deduplicated: true }),
      },
      this.#options.logger,
    );
  }

  /** One warning per failed fetch, throttled per subgraph so an outage cannot flood the log. */
  #logFailure(failure: Failure, { context, startedAt, retries = 0 }: Report): void {
    const logger = this.#options.logger;
    if (!logger?.isLevelEnabled('warn')) return;
    const suppressed = this.#failureLog.take();
    if (suppressed === undefined) return;
    logger.warn(
      {
        subgraph: this.#options.name,
        code: failure.code,
        durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000,
        ...(context && { requestId: context.requestId }),
        ...failure.detail,
        ...(retries > 0 && { retries }),
        ...(suppressed > 0 && { suppressedSinceLastLine: suppressed }),
      },
      'subgraph fetch failed',
    );
  }

  /** Logs (warn, throttled, no URL) and reports a change of this subgraph's circuit breaker. */
  #circuitChanged(state: CircuitState): void {
    const logger = this.#options.logger;
    const suppressed = logger?.isLevelEnabled('warn') ? this.#circuitLog.take() : undefined;
    if (suppressed !== undefined) {
      logger?.warn(
        {
          subgraph: this.#options.name,
          state,
          ...(suppressed > 0 && { suppressedSinceLastLine: suppressed }),
        },
        'subgraph circuit breaker state changed',
      );
    }
    emitEvent(this.#observers, { type: 'circuit-state', subgraph: this.#options.name, state }, logger);
  }
}

/** A GraphQL response: `data` an object or null (or absent with errors), `errors` a list. */
function parseGraphQLResponse(text: string): SubgraphResponse | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // not JSON: reported as a bad response by the caller
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { data, errors } = parsed as { data?: unknown; errors?: unknown };
  const dataOk = data === null || (typeof data === 'object' && !Array.isArray(data));
  const hasData = 'data' in parsed;
  if (hasData && !dataOk) return undefined;
  if (errors !== undefined && !Array.isArray(errors)) return undefined;
  if (!hasData && errors === undefined) return undefined;
  return parsed as SubgraphResponse;
}

function badResponse(status: number): Failure {
  return {
    code: ClientErrorCode.SUBGRAPH_BAD_RESPONSE,
    what: `answered HTTP ${status} without a GraphQL response`,
    detail: { status },
  };
}

/** A short, URL-free reason such as ECONNREFUSED, safe to show a client. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'connection failed';
}

/** 4xx: the subgraph (or a proxy in front of it) refused this request, not every request. */
function isRequestRefusal(status: number): boolean {
  return status >= 400 && status < 500;
}
