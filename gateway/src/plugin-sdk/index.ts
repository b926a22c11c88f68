// The plugin SDK: everything a plugin may use of the gateway, for the built-in plugins under
// plugins/ and for an operator's own alike (`@fedgw/gateway/plugin-sdk`). This list is the whole
// public surface, one export a line: tests/layering/import-graph.test.ts holds every plugin under
// plugins/ to it, and tests/plugin-sdk/surface.test.ts to exactly these names, so what the core
// keeps inside can change without a plugin noticing. Adding a name is a change of the public
// surface (ADR 055): the doc comment says what it is for, docs/plugins.md lists it.
// biome-ignore-all assist/source/organizeImports: one export a statement, each under its doc comment, grouped by purpose

// --- The contract (types only, from contract/): what a plugin is and what its hooks receive ---

/** A plugin: a named object with optional hooks, one per stage of a request. */
export type { GatewayPlugin } from '../contract/index.js';
/** A supergraph shown to `onSupergraph` before it serves: SDL, API schema, subgraph names. */
export type { Supergraph } from '../contract/index.js';
/** The operation `aroundExecute` wraps. */
export type { ExecutionRequest } from '../contract/index.js';
/** What `aroundExecute` returns (an answer, or a subscription's acknowledgement). */
export type { ExecutionResult } from '../contract/index.js';
/** One subgraph request as `onSubgraphRequest` and `aroundSubgraphFetch` see it. */
export type { SubgraphRequest } from '../contract/index.js';
/** A subgraph's answer as `onSubgraphResponse` sees it, with who answered. */
export type { SubgraphResponse } from '../contract/index.js';
/** A subgraph result (GraphQL `data` and `errors`). */
export type { SubgraphResult } from '../contract/index.js';
/** What `aroundSubgraphFetch`'s `fetch()` resolves to. */
export type { FetchedSubgraphResult } from '../contract/index.js';
/** What `onSubgraphRequest` may return to answer in the subgraph's place. */
export type { SubgraphHookAnswer } from '../contract/index.js';
/** One HTTP attempt of a subgraph request, as `onSubgraphAttempt` sees it. */
export type { SubgraphAttempt } from '../contract/index.js';
/** The callback `onSubgraphAttempt` returns, called when that attempt ends. */
export type { SubgraphAttemptEnd } from '../contract/index.js';
/** The context every hook and resolver receives. */
export type { GatewayContext } from '../contract/index.js';
/** An Apollo request once its operation is parsed, validated and chosen. */
export type { ResolvedRequest } from '../contract/index.js';
/** The bytes of subgraph answers a request may still merge (MAX_RESPONSE_BYTES). */
export type { ResponseBudget } from '../contract/index.js';
/** The HTTP side of one request: method, headers, client address. */
export type { RequestScope } from '../contract/index.js';
/** Who the caller is, as the auth plugins set it; extend it by declaration merging. */
export type { Identity } from '../contract/index.js';
/** An operator endpoint a plugin serves on the metrics listener. */
export type { AdminRoute } from '../contract/index.js';
/** The request an `AdminRoute` handles. */
export type { AdminRequest } from '../contract/index.js';
/** What an `AdminRoute` answers. */
export type { AdminAnswer } from '../contract/index.js';
/** What a metrics plugin serves on `/metrics`. */
export type { MetricsEndpoint } from '../contract/index.js';
/** One `/metrics` scrape's answer. */
export type { MetricsScrape } from '../contract/index.js';
/** Every event `onEvent` receives (a union on `kind`). */
export type { GatewayEvent } from '../contract/index.js';
/** A subgraph fetch ended (`subgraph-fetch`). */
export type { SubgraphFetchEvent } from '../contract/index.js';
/** A subgraph request is retried (`subgraph-retry`). */
export type { SubgraphRetryEvent } from '../contract/index.js';
/** A subgraph's circuit breaker changed state (`circuit-state`). */
export type { CircuitStateEvent } from '../contract/index.js';
/** The states of a subgraph's circuit breaker. */
export type { CircuitState } from '../contract/index.js';
/** A supergraph was loaded or refused (`supergraph-load`). */
export type { SupergraphLoadEvent } from '../contract/index.js';
/** A trusted-documents manifest was loaded or refused. */
export type { TrustedDocumentsLoadEvent } from '../contract/index.js';
/** The query-plan cache hit or missed. */
export type { QueryPlanCacheEvent } from '../contract/index.js';
/** Inbound deduplication joined a request to one in flight. */
export type { InboundDedupEvent } from '../contract/index.js';
/** The entity cache hit, missed, stored or was invalidated. */
export type { EntityCacheEvent } from '../contract/index.js';
/** A subscription opened or ended. */
export type { SubscriptionEvent } from '../contract/index.js';
/** A subscription delivered an event. */
export type { SubscriptionEventEvent } from '../contract/index.js';
/** What became of one entity cache invalidation (applied, queued for a retry, expired…). */
export type { EntityCacheInvalidationEvent } from '../contract/index.js';
/** Spans the tracing SDK lost instead of exporting. */
export type { TraceSpansDroppedEvent } from '../contract/index.js';
/** A sampled query was mirrored to a shadow: same, differs, shadow_error or dropped. */
export type { ShadowEvent } from '../contract/index.js';
/** Load shedding refused a request of a class (`load-shed`). */
export type { LoadShedEvent } from '../contract/index.js';
/** The clock a plugin's timers take from its options (tests pass one they move). */
export type { Clock } from '../contract/index.js';
/** The gateway's own Clock (`performance.now()`, unref'd timers), for a plugin whose options give none. */
export { realClock } from '../clock.js';

// --- Answers and errors: coded client errors, refusals with an HTTP status, option errors ---

/** Throw it from a hook to refuse a request with a code's HTTP status, headers and a GraphQL error. */
export { httpError } from '../http-error.js';
/** Every client error code as a constant (`ClientErrorCode.UNAUTHENTICATED`) and as a type. */
export { ClientErrorCode } from '../error-registry.js';
/** Whether a value is one of the gateway's client error codes. */
export { isClientErrorCode } from '../error-registry.js';
/** Whether an error with this code keeps its message when errors are masked. */
export { isClientSafe } from '../error-registry.js';
/** A code renamed to Apollo Router's, still sent for one release in `extensions.legacyCode`. */
export type { LegacyCode } from '../error-registry.js';
/** The `error.code` of errors that stop startup (never sent to a client). */
export type { StartupErrorCode } from '../error-registry.js';
/** The one answer that replaces a response over MAX_RESPONSE_BYTES. */
export { responseTooLarge } from '../response-budget.js';
/** One invalid field or option and why, as configuration errors list them. */
export type { ConfigIssue } from '../errors.js';
/** What a plugin factory throws for bad options (`ERR_GATEWAY_PLUGIN_OPTIONS_INVALID`), each named. */
export { PluginOptionsError } from '../errors.js';

// --- Options: checked when a plugin's factory runs, every bad one named ---

/** Collects every bad option of a factory, then throws them together as one `PluginOptionsError`. */
export { OptionIssues } from '../settings/plugin-options.js';
/** Options must be a plain object; anything else is reported on `options`. */
export { asOptionsObject } from '../settings/plugin-options.js';
/** Reports keys a factory does not know, so a typo is never silently ignored. */
export { checkKnownKeys } from '../settings/plugin-options.js';
/** `options[field]` checked with a value schema, or its default when unset or bad. */
export { optionalValue } from '../settings/plugin-options.js';
/** Checks a header name option (not a reserved one) and returns it lower-cased. */
export { headerName } from '../settings/plugin-options.js';
/** A value as an error message shows it: strings quoted, objects by type, never their content. */
export { describe } from '../settings/plugin-options.js';
/** A schema that checks and converts one value (valibot): the kinds below build them. */
export type { ValueParser } from '../settings/kinds.js';
/** A value read with a schema: `{ ok, value }` or `{ ok: false, message }`. */
export type { Parsed } from '../settings/kinds.js';
/** The typed values of a record of schemas (`SettingsOf<typeof MY_OPTIONS>`). */
export type { SettingsOf } from '../settings/kinds.js';
/** Reads one raw value with a schema, without throwing. */
export { readValue } from '../settings/kinds.js';
/** The defaults of a record of schemas built with `withDefault`. */
export { defaultsOf } from '../settings/kinds.js';
/** A schema with its default. */
export { withDefault } from '../settings/kinds.js';
/** `true`/`false` (also from `"true"`, `"1"`…). */
export { boolean } from '../settings/kinds.js';
/** An integer within a range. */
export { integer } from '../settings/kinds.js';
/** A size in bytes within a range (`512kb`, `10mb` or a number). */
export { byteSize } from '../settings/kinds.js';
/** A duration in milliseconds within a range (`500ms`, `60s`, `5m` or a number). */
export { duration } from '../settings/kinds.js';
/** An http(s) URL. */
export { httpUrl } from '../settings/kinds.js';
/** A non-empty string. */
export { nonEmpty } from '../settings/kinds.js';
/** A URL path (`/metrics`). */
export { urlPath } from '../settings/kinds.js';
/** One of a fixed list of strings. */
export { oneOf } from '../settings/kinds.js';
/** A list (an array, or a comma-separated string) of values of one kind. */
export { list } from '../settings/kinds.js';
/** A value kind of one's own: a description and a reader returning `Parsed`. */
export { custom } from '../settings/kinds.js';
/** `key:value` pairs separated by commas, each value of one kind. */
export { pairs } from '../settings/kinds.js';
/** A number between two bounds, such as a fraction (`0.25`). */
export { share } from '../settings/kinds.js';

// --- Per-client keys: the one rule every per-client limit counts by ---

/** A client's key: a verified subject alone, else its network (IPv6 by prefix) with its API key's consumer. */
export { clientKey } from '../client-address/index.js';
/** `clientKey` bound to one gateway's IPv6 prefix. */
export type { ClientKeyOf } from '../client-address/index.js';
/** CLIENT_IPV6_PREFIX's default: an IPv6 client holds a /64. */
export { DEFAULT_IPV6_PREFIX } from '../client-address/index.js';

// --- Header names: each written once, and those no plugin may forward or set ---

/** Whether a string is a valid HTTP header name. */
export { isHeaderName } from '../header-names.js';
/** `x-request-id`: the gateway's request id, sent to every subgraph. */
export { REQUEST_ID_HEADER } from '../header-names.js';
/** Headers no plugin may forward, set or read claims into (hop-by-hop, body, identity headers). */
export { RESERVED_HEADERS } from '../header-names.js';
/** The trace-context headers the propagators write (`traceparent`, `b3`…). */
export { TRACE_CONTEXT_HEADERS } from '../header-names.js';

// --- Logging and events ---

/** The gateway's logger (pino's levels), as hooks receive it. */
export type { Logger } from '../logger.js';
/** Lets at most N log lines through per interval and counts the rest, so an outage cannot flood the log. */
export { LogThrottle } from '../log-throttle.js';
/** Hands one event to every plugin with `onEvent`; an observer that throws is logged, never fails the caller. */
export { emitEvent } from '../events.js';
/** How many log lines were dropped so far because stdout was not being read. */
export { droppedLogLines } from '../log-destination.js';

// --- The supergraph: its `@link`ed directives (`@cost`, `@authenticated`…), its value schemas ---

/** The name a linked spec's directive has in this supergraph (its import or prefix), if linked. */
export { linkedName } from '../supergraph/linked-directives.js';
/** A directive's argument by name. */
export { argument } from '../supergraph/linked-directives.js';
/** A directive's integer argument by name. */
export { intArgument } from '../supergraph/linked-directives.js';
/** A list of strings from a directive argument's value. */
export { stringList } from '../supergraph/linked-directives.js';
/** The supergraph source's value schemas (a plugin that polls a file reuses its poll interval). */
export { SUPERGRAPH_VALUES } from '../supergraph/settings.js';

// --- Shaping answers: deferred parts and subscription events a plugin rewrites, shared answers ---

/** In `aroundExecute`: maps each later part of an operation with `@defer`. */
export { mapDeferredParts } from '../executor/deferred-delivery.js';
/** Whether a document's text may hold `@defer`. */
export { mayDefer } from '../executor/deferred-delivery.js';
/** In `aroundExecute`: maps each event of a subscription. */
export { mapStreamEvents } from '../subscriptions/stream-sink.js';
/** The sink a subscription's events go to, when the request is a subscription. */
export { streamSinkOf } from '../subscriptions/stream-sink.js';
/** Marks an answer's `data` as served to several callers: its JSON is written once. */
export { markShared } from '../serialize/shared-answer.js';
/** The response headers one caller's answer may share with another's (no cookies). */
export { shareableHeaders } from '../dedup/shareable-headers.js';

// --- A shared store the gateway can do without (Redis): skipped after failures, probed until it answers ---

/** Skips a store after repeated failures and probes it in the background until it answers. */
export { ProbingBreaker } from '../resilience/probing-breaker.js';
/** `ProbingBreaker`'s options. */
export type { ProbingBreakerOptions } from '../resilience/probing-breaker.js';
/** A promise against a deadline that a lagging event loop does not count as the store's slowness. */
export { withinDeadline } from '../resilience/lag-tolerant-deadline.js';
/** What `withinDeadline` resolves to when the deadline passed first. */
export { TIMED_OUT } from '../resilience/lag-tolerant-deadline.js';

// --- Files ---

/** Watches a file by polling `stat` (ConfigMap symlink swaps included) and reads it when it changed. */
export { pollFile } from '../watch/poll-file.js';
/** What `pollFile` returns: its current content, and `close()`. */
export type { FilePoller } from '../watch/poll-file.js';
