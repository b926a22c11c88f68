import type { IncomingHttpHeaders } from 'node:http';
import type { ApolloServerOptionsWithGateway, ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { GatewayContext } from './context.js';
import type { ClientErrorCode } from './error-codes.js';
import type { GatewayEvent } from './events.js';
import type { Identity } from './identity.js';
import type { AdminRoute } from './mountable-gateway.js';
import type { RequestScope } from './request-scope.js';

/** One outgoing subgraph request; plugins edit `headers` (lower-case names) in place. */
export interface SubgraphRequest {
  readonly subgraph: string;
  readonly headers: Record<string, string>;
  readonly context: GatewayContext;
  /** The operation the query plan sends this subgraph (read-only). */
  readonly query: string;
  readonly operationName?: string | undefined;
  readonly variables?: Readonly<Record<string, unknown>> | undefined;
}

/** A subgraph's GraphQL answer (read-only: the gateway merges it into the client's answer). */
export interface SubgraphResult {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly GraphQLFormattedError[];
  /** The subgraph's `extensions` (never sent to the client; an entity cache reads `invalidation` here). */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** What `fetch` gives an `aroundSubgraphFetch` hook back. */
export interface FetchedSubgraphResult {
  readonly result: SubgraphResult;
  /** The subgraph's response headers (`{}` when it did not answer). */
  readonly headers: IncomingHttpHeaders;
  /**
   * False when the gateway wrote the answer itself (a timeout, an open breaker, an answer too
   * large, a plugin's refusal): it says nothing about the subgraph's data, so never keep it.
   */
  readonly fromSubgraph: boolean;
}

/** One subgraph response: what the subgraph answered, or what a plugin answered in its place. */
export interface SubgraphResponse {
  readonly subgraph: string;
  /** The subgraph's response headers (none when a plugin answered). */
  readonly headers: IncomingHttpHeaders;
  readonly context: GatewayContext;
  readonly result: SubgraphResult;
  /** The plugin that answered instead of the subgraph, when one did. */
  readonly answeredBy?: string;
}

/**
 * One HTTP attempt to send a subgraph request: the first, then each retry. What a tracing
 * plugin needs for a client span: where it goes (never a credential or a query string) and
 * which attempt it is.
 */
export interface SubgraphAttempt {
  readonly subgraph: string;
  /** 1 for the first attempt, 2 for the first retry… */
  readonly attempt: number;
  readonly method: 'POST';
  /** The subgraph's URL without user info or query string. */
  readonly url: string;
  /** Its host name or IP address, and port (the scheme's default when the URL has none). */
  readonly address: string;
  readonly port: number;
  /**
   * Sent with this attempt only, over the request's own (lower-case names): a tracing plugin
   * writes the trace context of the attempt's span here.
   */
  readonly headers: Record<string, string>;
}

/** How one attempt ended. */
export interface SubgraphAttemptEnd {
  /** False when the circuit breaker refused it: nothing was sent. */
  readonly sent: boolean;
  /** The subgraph's HTTP status, when it answered. */
  readonly status?: number;
  /** `ok` (a GraphQL answer was read), or the code the attempt failed with. */
  readonly outcome: 'ok' | ClientErrorCode;
  /** A retry of it is planned (its wait begins). */
  readonly retried: boolean;
}

/** What `onSubgraphRequest` returns: an answer in the subgraph's place, or nothing to go on. */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that only edits headers returns nothing
export type SubgraphHookAnswer = SubgraphResult | undefined | void;

/** A supergraph the gateway is about to serve: at start, and after each hot reload validated it. */
export interface Supergraph {
  /** The supergraph SDL, as its source delivered it (Federation's join and link directives included). */
  readonly sdl: string;
  /** The API schema clients query (what introspection shows). */
  readonly schema: GraphQLSchema;
  /** Its subgraph names, in `subgraphKey` form (lower case, `-` as `_`). */
  readonly subgraphs: readonly string[];
}

type GatewayInterface = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];
type Executor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;
/** One resolved operation on its way to the query planner and the subgraphs. */
export type ExecutionRequest = Parameters<Executor>[0];
export type ExecutionResult = Awaited<ReturnType<Executor>>;

/**
 * A gateway plugin: a named bundle of optional hooks, one per stage a gateway needs.
 * Build one with a factory (`jwtAuth(options)`, `rateLimit(options)`...) that checks its
 * options and throws an error naming any bad one. Per-request state lives in the
 * context or in a WeakMap keyed by it, never in module variables.
 *
 * Order (compose/ builds the list): the gateway's own plugins first (request log, cost
 * declarations, trusted documents, request shape, operation resolution, operation limits,
 * demand control, response size), then the configured plugins in one fixed order (header
 * rules, client awareness, JWT, API key, rate limit, response headers; `PLUGIN_NAMES` in
 * config/types.ts), then plugins added in code, and inbound deduplication last when it is on.
 * It matters: auth runs after header rules,
 * so a rule that propagates `x-` headers cannot spoof an identity header the auth plugin
 * sets; the rate limit runs after auth, so it can key by the verified identity.
 *
 * When a hook throws: an error made with `httpError()` is the plugin's answer (its status
 * and code reach the client). Anything else is a bug in that plugin: from `authenticate`
 * and the subgraph hooks it is logged at error with the plugin's name and answered
 * INTERNAL_SERVER_ERROR (500 for `authenticate`; the affected fields for subgraph hooks,
 * never a subgraph code); from the Apollo hooks, Apollo Server answers 500 and the request
 * log plugin logs it.
 */
export interface GatewayPlugin {
  readonly name: string;
  /**
   * Runs while the request context is built, before the operation is even parsed.
   * Returns identity facts to merge into `context.identity`, or throws an error made
   * with `httpError()` (401, 400...) to reject the request.
   */
  authenticate?(
    scope: RequestScope,
    /** The identity facts the plugins before this one established (load shedding classes by them). */
    established?: Identity,
  ): Promise<Partial<Identity> | undefined> | Partial<Identity> | undefined;
  /**
   * Charges a request on the GraphQL path that carries no operation (a CORS preflight, a
   * graphql-sse reservation) before it is answered, so no request is free. `scope.identity` is
   * set when the request was authenticated (a reservation), absent for a preflight. Throw an
   * error made with `httpError()` to refuse it (rate limit).
   */
  admit?(scope: RequestScope): Promise<void> | void;
  /**
   * Operation-level hooks (rate limits, limits, response headers). Throw `httpError()` to reject.
   * With INBOUND_DEDUPLICATE a result's `data` may be shared by several callers and serialized
   * once for all: to change one caller's answer, replace `data`, never edit it in place.
   */
  readonly apollo?: ApolloServerPlugin<GatewayContext>;
  /**
   * Sees each supergraph before it serves (at start and on every hot reload), to prepare what
   * it reads per request (cost directives, authorization rules). Throwing refuses that
   * supergraph: the gateway does not start, or a reload is rejected and the previous
   * supergraph keeps serving (plugins that had already seen the refused one see the previous
   * one again).
   */
  onSupergraph?(supergraph: Supergraph): void | Promise<void>;
  /**
   * The spec URLs of supergraph features linked `for: SECURITY` this plugin enforces
   * (`https://specs.apollo.dev/authenticated/v0.1`). The gateway refuses a supergraph with a
   * security feature no plugin enforces: serving it would drop its rules.
   */
  readonly enforces?: readonly string[];
  /**
   * Wraps the execution of each operation that passed every check (query planning and the
   * subgraph fetches). May answer without calling `execute` (inbound deduplication joins an
   * identical execution in flight); otherwise calls it once and returns what it returns, or an
   * answer built from it. `execute` may be given the request to run instead: authorization runs
   * the operation without the fields the caller may not see (its `queryHash` must then name
   * what changed: it keys the query plan cache).
   */
  aroundExecute?(
    request: ExecutionRequest,
    execute: (instead?: ExecutionRequest) => Promise<ExecutionResult>,
  ): Promise<ExecutionResult>;
  /**
   * Runs before each subgraph request, in the gateway's plugin order: edits its headers, or
   * answers it by returning a result (a cache hit, a refusal), or a Promise of one (or of
   * undefined, to go on) when the answer needs I/O; a synchronous hook costs no extra turn of
   * the event loop. The next plugin's hook runs once the promise settles (a rejected one is a
   * bug in the plugin, as a throw). When a plugin answered, the subgraph is not asked:
   * no connection, retry or circuit breaker, no later plugin's `onSubgraphRequest`, and the
   * result is not counted against the response size limit; `onSubgraphResponse` still sees it.
   */
  onSubgraphRequest?(request: SubgraphRequest): SubgraphHookAnswer | Promise<SubgraphHookAnswer>;
  /**
   * Wraps the subgraph fetch itself, after every `onSubgraphRequest` (so `request.headers` are
   * final): an entity cache answers what it holds and calls `fetch` once with `variables` asking
   * only for what it lacks (`representations` narrowed), then merges. May answer without calling
   * `fetch`. The first plugin's hook is the outermost. `fetch` never throws: a failed fetch is
   * an answer with errors and `fromSubgraph: false`. A hook that throws fails the fetch as
   * INTERNAL_SERVER_ERROR, as `onSubgraphRequest` does. With no plugin implementing it the
   * fetch costs nothing more.
   */
  aroundSubgraphFetch?(
    request: SubgraphRequest,
    fetch: (variables?: Readonly<Record<string, unknown>>) => Promise<FetchedSubgraphResult>,
  ): Promise<SubgraphResult>;
  /** Sees each subgraph response (headers and result), or a plugin's answer in its place. */
  onSubgraphResponse?(response: SubgraphResponse): void;
  /**
   * Sees each HTTP attempt of a subgraph request as it starts (retries are further attempts;
   * an attempt the circuit breaker refuses starts and ends at once, unsent) and returns what
   * to call when it ends. Runs inside the fetch's context (tracing: @apollo/gateway's
   * `gateway.fetch` span). Without a plugin that has it, attempts cost nothing extra.
   * Must be cheap and must not throw (a throw is logged once and ignored).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a plugin may have nothing to do at the end
  onSubgraphAttempt?(attempt: SubgraphAttempt): ((end: SubgraphAttemptEnd) => void) | undefined | void;
  /**
   * Observes what happens inside the gateway (subgraph fetches, retries, circuit breaker
   * states, supergraph and trusted-document reloads). Must be cheap and must not throw:
   * it runs on the request path; a throw is logged once and ignored.
   */
  onEvent?(event: GatewayEvent): void;
  /**
   * Wraps the handling of one request on the GraphQL path (tracing makes its server span
   * the active context here), and the `onResponse` hooks of that request, so what they log
   * is in the same context. Must call `next` once and return what it returns.
   */
  aroundRequest?<T>(scope: RequestScope, next: () => T): T;
  /**
   * After the response is sent, with its final HTTP status; also for requests refused before
   * `aroundRequest` ran (413, a bad Host). Must be cheap and must not throw.
   */
  onResponse?(scope: RequestScope, statusCode: number): void;
  /**
   * Holds `/ready` at 503 while it returns false, even once the gateway is started (a cluster
   * worker waits for its siblings). Read on every probe: must be cheap.
   */
  isReady?(): boolean;
  /**
   * Operator endpoints (the entity cache's invalidation), served only on the metrics listener
   * (METRICS_PORT), never on the public port; each checks its own credentials.
   */
  readonly adminRoutes?: readonly AdminRoute[];
  /** Releases connections and timers when the gateway stops. */
  close?(): Promise<void>;
}
