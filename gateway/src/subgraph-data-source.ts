import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { Pool } from 'undici';
import type { GatewayContext, GatewayPlugin } from './contract/index.js';
import { ClientErrorCode } from './error-registry.js';
import { emitEvent } from './events.js';
import { failedFetchErrors } from './fetch-error-paths.js';
import { LogThrottle } from './log-throttle.js';
import type { Logger } from './logger.js';
import { discardBody, readBoundedBody, TOO_LARGE } from './read-bounded-body.js';

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
 * Request bodies longer than this go on a connection that is closed after the answer.
 * A subgraph (or a proxy in front of it) may answer such a request early (413, 401)
 * without reading the whole body; the unread bytes would then sit in front of the next
 * request on a reused socket, which would hang until its timeout.
 */
const REUSE_MAX_BODY_CHARS = 64 * 1024;
/** At most this many "subgraph fetch failed" lines per subgraph per interval. */
const FAILURE_LOG_LIMIT = 10;
const FAILURE_LOG_INTERVAL_MS = 10_000;

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
}

interface Failure {
  code: ClientErrorCode;
  /** Completes "Subgraph "users" …" in the message clients see; never a URL or a body. */
  what: string;
  /** Extra fields for the log line (HTTP status, error name). */
  detail?: Record<string, unknown>;
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

  constructor(options: SubgraphDataSourceOptions) {
    this.#options = options;
    this.#maxResponseBytes = options.maxResponseBytes ?? Number.POSITIVE_INFINITY;
    this.#requestHooks = (options.plugins ?? []).filter((plugin) => plugin.onSubgraphRequest);
    this.#responseHooks = (options.plugins ?? []).filter((plugin) => plugin.onSubgraphResponse);
    this.#observers = (options.plugins ?? []).filter((plugin) => plugin.onEvent);
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
      return this.#failure(options, {
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
      if (failed) return this.#failure(options, failed, context, startedAt);
      // Set after the hooks: a header rule propagating `x-` headers must not replace the gateway's id.
      headers['x-request-id'] = context.requestId;
    }
    const body = JSON.stringify({
      query: request.query,
      operationName: request.operationName,
      variables: request.variables,
      ...(request.extensions ? { extensions: request.extensions } : {}),
    });

    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    let failure: Failure;
    try {
      const response = await this.#pool.request({
        path: this.#path,
        method: 'POST',
        headers,
        body,
        signal,
        reset: body.length > REUSE_MAX_BODY_CHARS,
      });
      if (context) {
        const failed = this.#runHooks(this.#responseHooks, context, (plugin) =>
          plugin.onSubgraphResponse?.({ subgraph: this.#options.name, headers: response.headers, context }),
        );
        if (failed) {
          discardBody(response.body);
          return this.#failure(options, failed, context, startedAt);
        }
      }
      const limit = Math.min(this.#maxResponseBytes, (context?.responseBudget.remaining ?? Infinity) + 1);
      const read = await readBoundedBody(response.body, response.headers, limit);
      if (read === TOO_LARGE || (context && !context.responseBudget.take(read.bytes))) {
        failure = this.#tooLarge(context, response.statusCode);
      } else {
        const parsed = parseGraphQLResponse(read.text);
        if (parsed) {
          this.#fetched('ok', context, startedAt);
          return parsed;
        }
        failure = {
          code: ClientErrorCode.SUBGRAPH_BAD_RESPONSE,
          what: `answered HTTP ${response.statusCode} without a GraphQL response`,
          detail: { status: response.statusCode },
        };
      }
    } catch (error) {
      failure = signal.aborted
        ? { code: ClientErrorCode.SUBGRAPH_TIMEOUT, what: `did not answer within ${this.#options.timeoutMs} ms` }
        : {
            code: ClientErrorCode.SUBGRAPH_UNAVAILABLE,
            what: `is unavailable (${errorCode(error)})`,
            detail: { error: errorCode(error) },
          };
    }
    return this.#failure(options, failure, context, startedAt);
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

  #failure(options: ProcessOptions, failure: Failure, context?: GatewayContext, startedAt?: number): SubgraphResponse {
    if (startedAt !== undefined && failure.code !== ClientErrorCode.INTERNAL_SERVER_ERROR) {
      this.#logFailure(failure, context, startedAt);
      this.#fetched(failure.code, context, startedAt);
    }
    const message = `Subgraph "${this.#options.name}" ${failure.what}.`;
    return {
      errors: failedFetchErrors(options.request.query, options.request.variables, message, { code: failure.code }),
    };
  }

  /** Tells observing plugins (metrics, tracing) how the fetch ended. */
  #fetched(outcome: 'ok' | ClientErrorCode, context: GatewayContext | undefined, startedAt: number): void {
    if (this.#observers.length === 0) return;
    emitEvent(
      this.#observers,
      {
        type: 'subgraph-fetch',
        subgraph: this.#options.name,
        durationMs: performance.now() - startedAt,
        outcome,
        retries: 0,
        ...(context && { requestId: context.requestId }),
      },
      this.#options.logger,
    );
  }

  /** One warning per failed fetch, throttled per subgraph so an outage cannot flood the log. */
  #logFailure(failure: Failure, context: GatewayContext | undefined, startedAt: number): void {
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
        ...(suppressed > 0 && { suppressedSinceLastLine: suppressed }),
      },
      'subgraph fetch failed',
    );
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

/** A short, URL-free reason such as ECONNREFUSED, safe to show a client. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'connection failed';
}
