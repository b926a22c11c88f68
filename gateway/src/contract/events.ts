import type { ClientErrorCode } from './error-codes.js';

/**
 * What happened inside the gateway, for plugins that observe it (metrics, tracing, audit
 * logs) through `GatewayPlugin.onEvent`. Events carry names, codes and durations only:
 * never a URL, a header value, a body or a credential.
 */
export type GatewayEvent =
  | SubgraphFetchEvent
  | SubgraphRetryEvent
  | CircuitStateEvent
  | SupergraphLoadEvent
  | TrustedDocumentsLoadEvent
  | QueryPlanCacheEvent
  | InboundDedupEvent
  | SubscriptionEvent
  | SubscriptionEventEvent
  | EntityCacheEvent
  | EntityCacheInvalidationEvent
  | TraceSpansDroppedEvent
  | ShadowEvent
  | LoadShedEvent;

/** One subgraph fetch finished (after any retries), whatever its outcome. */
export interface SubgraphFetchEvent {
  readonly type: 'subgraph-fetch';
  readonly subgraph: string;
  /** From the first attempt's start to the answer the gateway uses. */
  readonly durationMs: number;
  /** `ok`, or the code on the affected fields (GATEWAY_TIMEOUT, SUBREQUEST_HTTP_ERROR…). */
  readonly outcome: 'ok' | ClientErrorCode;
  /** Attempts after the first (0 without retries). */
  readonly retries: number;
  readonly requestId?: string;
  /**
   * Set when this caller joined an identical fetch already in flight (SUBGRAPH_DEDUPLICATE)
   * instead of sending its own: count a subgraph's requests without these.
   */
  readonly deduplicated?: true;
}

/** A failed attempt is about to be retried. */
export interface SubgraphRetryEvent {
  readonly type: 'subgraph-retry';
  readonly subgraph: string;
  /** The attempt that failed, counted from 1. */
  readonly attempt: number;
  readonly code: ClientErrorCode;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/** A subgraph's circuit breaker changed state. */
export interface CircuitStateEvent {
  readonly type: 'circuit-state';
  readonly subgraph: string;
  readonly state: CircuitState;
}

/** A supergraph was read at startup or on a change: applied, or rejected and the old one kept. */
export interface SupergraphLoadEvent {
  readonly type: 'supergraph-load';
  readonly outcome: 'applied' | 'rejected';
  /** `file` (SUPERGRAPH_PATH) or `url` (SUPERGRAPH_URL). */
  readonly source: 'file' | 'url';
  /** Why it was rejected (no SDL text). */
  readonly reason?: string;
}

/** A trusted-documents manifest was read at startup or on a change. */
export interface TrustedDocumentsLoadEvent {
  readonly type: 'trusted-documents-load';
  readonly outcome: 'applied' | 'rejected';
  /** Operations in the manifest now in use. */
  readonly documents: number;
  readonly reason?: string;
}

/** An operation that passed validation looked up its query plan: found (`hit`) or planned now (`miss`). */
export interface QueryPlanCacheEvent {
  readonly type: 'query-plan-cache';
  readonly outcome: 'hit' | 'miss';
}

/**
 * With INBOUND_DEDUPLICATE, a query ran (`executed`) or shared the execution of an identical
 * query already in flight (`joined`, which cost no subgraph request).
 */
export interface InboundDedupEvent {
  readonly type: 'inbound-dedup';
  readonly outcome: 'executed' | 'joined';
  readonly requestId: string;
}

/** A client subscription started (it passed every check and its subgraph socket is opening) or ended. */
export interface SubscriptionEvent {
  readonly type: 'subscription';
  readonly phase: 'start' | 'end';
}

/** A subscription delivered an event to its client: with data only, or with errors. */
export interface SubscriptionEventEvent {
  readonly type: 'subscription-event';
  readonly outcome: 'data' | 'errors';
}

/**
 * What the entity cache did for one subgraph fetch, per type: entities served from it (`hit`),
 * asked of the subgraph (`miss`), or neither kept nor looked up (`bypass`: the store is down or
 * slow); answers not kept because their client used up its write budget (`throttled`); entries
 * evicted for room (`eviction`) or dropped by an invalidation (`invalidation`). `Query` is the
 * type of root query fields.
 */
export interface EntityCacheEvent {
  readonly type: 'entity-cache';
  readonly subgraph: string;
  readonly entityType: string;
  readonly outcome: 'hit' | 'miss' | 'bypass' | 'eviction' | 'invalidation' | 'throttled';
  readonly count: number;
  readonly requestId?: string;
}

/**
 * What became of one entity cache invalidation (from a subgraph's answer or the operator's
 * endpoint): taken by the store at once (`applied`); not taken (Redis unreachable) and kept for
 * a retry (`queued`); taken by a retry (`retried`); given up once every entry it named had
 * expired (`expired`); folded into its subgraph's whole invalidation because the queue was full
 * (`merged`); not kept because even that did not fit (`dropped`: the cache is then off on this
 * gateway until the entries it named have expired). `pending` is how many wait after it.
 */
export interface EntityCacheInvalidationEvent {
  readonly type: 'entity-cache-invalidation';
  readonly outcome: 'applied' | 'queued' | 'retried' | 'expired' | 'merged' | 'dropped';
  readonly pending: number;
}

/**
 * Spans the tracing SDK lost instead of exporting: its queue was full (`queue_full`,
 * OTEL_BSP_MAX_QUEUE_SIZE), or an export failed or timed out (`export_failed`: the collector
 * is down, refused them, or did not answer). Outside any request.
 */
export interface TraceSpansDroppedEvent {
  readonly type: 'trace-spans-dropped';
  readonly reason: 'queue_full' | 'export_failed';
  readonly count: number;
}

/**
 * A sampled query mirrored to a shadow (SHADOW_URL: `url`, SHADOW_SUPERGRAPH: `supergraph`) after
 * its client was answered: the shadow's answer was the `same` as the client's, `differs`, failed
 * (`shadow_error`: down, slow, too large, not JSON), or was not sent (`dropped`: too many in flight).
 */
export interface ShadowEvent {
  readonly type: 'shadow';
  readonly target: 'url' | 'supergraph';
  readonly outcome: 'same' | 'differs' | 'shadow_error' | 'dropped';
}

/**
 * Load shedding refused a new request of `className` (one of the operator's SHED_CLASSES: a
 * bounded set) because the gateway was past its bound for that class.
 */
export interface LoadShedEvent {
  readonly type: 'load-shed';
  readonly className: string;
}
