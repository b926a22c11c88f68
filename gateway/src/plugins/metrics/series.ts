import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { droppedLogLines } from '../../plugin-sdk/index.js';

// Seconds, from a fast cached answer to a slow federated one; subgraph fetches start lower.
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const FETCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// OpenTelemetry's advice for http.server.request.duration, so dashboards made for it fit.
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Every series the gateway exports, on one registry. Labels take bounded values only:
 * operation names (capped), operation types, outcomes, registered error codes, subgraph
 * names from the supergraph, known HTTP methods and the routes the adapters serve. Never a user id, an IP, a header value or a URL.
 */
export function createSeries(registry: Registry) {
  const registers = [registry];
  // In this order, the order the registry has always exported them in.
  return {
    ...httpSeries(registers),
    ...planCacheSeries(registers),
    ...subgraphSeries(registers),
    ...loadSeries(registers),
    ...subscriptionSeries(registers),
    ...entityCacheSeries(registers),
    ...droppedSeries(registers),
    ...shadowSeries(registers),
  };
}

export type Series = ReturnType<typeof createSeries>;

/** Read from the process's standard output destination at each scrape (log-destination.ts). */
function logLinesDropped(registers: Registry[]): Counter {
  let counted = 0;
  return new Counter({
    name: 'gateway_log_lines_dropped_total',
    help: 'Log lines this process dropped because standard output was not taking them (past GATEWAY_LOG_MAX_QUEUED_BYTES).',
    registers,
    collect() {
      const total = droppedLogLines();
      this.inc(total - counted);
      counted = total;
    },
  });
}

/** The HTTP requests and the GraphQL operations they carry: durations, outcomes, refusals. */
function httpSeries(registers: Registry[]) {
  return {
    httpDuration: new Histogram({
      // OpenTelemetry's http.server.request.duration as Prometheus names it; its attributes as labels.
      name: 'http_server_request_duration_seconds',
      help: 'Every HTTP request on the main listener, refusals before GraphQL runs included, from its arrival to the end of its response.',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    requests: new Counter({
      name: 'gateway_graphql_requests_total',
      help: 'GraphQL requests that reached the operation pipeline, by operation and outcome (ok, error: executed with errors, rejected: refused before execution).',
      labelNames: ['operation_name', 'operation_type', 'outcome'] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: 'gateway_graphql_request_duration_seconds',
      help: 'Time from the request reaching the gateway to its response being ready.',
      labelNames: ['operation_name', 'operation_type'] as const,
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    rejections: new Counter({
      name: 'gateway_graphql_rejections_total',
      help: 'Requests refused before execution, by the extensions.code of the first error (rate limit, limits, cost, validation, authentication...).',
      labelNames: ['code'] as const,
      registers,
    }),
    authFailures: new Counter({
      name: 'gateway_auth_failures_total',
      help: 'Requests refused by an authentication plugin, by reason (missing, invalid, malformed, error).',
      labelNames: ['reason'] as const,
      registers,
    }),
  };
}

/** The query plan cache: hits and misses. */
function planCacheSeries(registers: Registry[]) {
  return {
    planCacheHits: new Counter({
      name: 'gateway_query_plan_cache_hits_total',
      help: 'Operations whose query plan was found in the cache.',
      registers,
    }),
    planCacheMisses: new Counter({
      name: 'gateway_query_plan_cache_misses_total',
      help: 'Operations that had to be planned.',
      registers,
    }),
  };
}

/** Subgraph fetches: durations, errors, timeouts, retries and circuit breakers. */
function subgraphSeries(registers: Registry[]) {
  return {
    fetchDuration: new Histogram({
      name: 'gateway_subgraph_fetch_duration_seconds',
      help: 'Subgraph fetches, from the first attempt to the answer used (retries included), by outcome: ok or the code on the affected fields.',
      labelNames: ['subgraph', 'outcome'] as const,
      buckets: FETCH_BUCKETS,
      registers,
    }),
    fetchErrors: new Counter({
      name: 'gateway_subgraph_fetch_errors_total',
      help: 'Subgraph fetches that failed, by the code on the affected fields.',
      labelNames: ['subgraph', 'code'] as const,
      registers,
    }),
    fetchTimeouts: new Counter({
      name: 'gateway_subgraph_fetch_timeouts_total',
      help: 'Subgraph fetches aborted at their timeout (also counted in gateway_subgraph_fetch_errors_total).',
      labelNames: ['subgraph'] as const,
      registers,
    }),
    retries: new Counter({
      name: 'gateway_subgraph_retries_total',
      help: 'Subgraph fetch attempts that failed and were retried, by the code of the failure.',
      labelNames: ['subgraph', 'code'] as const,
      registers,
    }),
    circuitState: new Gauge({
      name: 'gateway_subgraph_circuit_state',
      help: "A subgraph's circuit breaker: 1 for its current state (closed, open, half-open), 0 for the others.",
      labelNames: ['subgraph', 'state'] as const,
      registers,
    }),
  };
}

/** What the gateway loads at startup or on a change: supergraphs and trusted-document manifests. */
function loadSeries(registers: Registry[]) {
  return {
    supergraphLoads: new Counter({
      name: 'gateway_supergraph_loads_total',
      help: 'Supergraphs read at startup or on a change: applied, or rejected (the previous one kept).',
      labelNames: ['source', 'outcome'] as const,
      registers,
    }),
    trustedDocumentsLoads: new Counter({
      name: 'gateway_trusted_documents_loads_total',
      help: 'Trusted-document manifests read at startup or on a change: applied or rejected.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    trustedDocuments: new Gauge({
      name: 'gateway_trusted_documents',
      help: 'Operations in the trusted-documents manifest in use.',
      registers,
    }),
  };
}

/** Client subscriptions: those live and the events delivered. */
function subscriptionSeries(registers: Registry[]) {
  return {
    subscriptionsActive: new Gauge({
      name: 'gateway_subscriptions_active',
      help: 'Client subscriptions live now (WebSocket and SSE).',
      registers,
    }),
    subscriptionEvents: new Counter({
      name: 'gateway_subscription_events_total',
      help: 'Events delivered to subscribed clients: with data only, or with errors.',
      labelNames: ['outcome'] as const,
      registers,
    }),
  };
}

/** The entity cache: lookups and invalidations. */
function entityCacheSeries(registers: Registry[]) {
  return {
    entityCache: new Counter({
      name: 'gateway_entity_cache_total',
      help: 'Entity cache, per subgraph and type (Query: root fields): entities served (hit), asked of the subgraph (miss), neither looked up nor kept (bypass), evicted for room (eviction), dropped by an invalidation (invalidation; type * for a whole subgraph).',
      labelNames: ['subgraph', 'type', 'outcome'] as const,
      registers,
    }),
    entityCacheInvalidations: new Counter({
      name: 'gateway_entity_cache_invalidations_total',
      help: 'Entity cache invalidations, by what became of them: applied at once, queued (the store could not take it: retried), retried (applied by a retry), expired (given up: everything it named had expired), merged (into a whole-subgraph one: queue full), dropped (queue full: the cache is off on this process until what it named has expired).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    entityCacheInvalidationsPending: new Gauge({
      name: 'gateway_entity_cache_invalidations_pending',
      help: 'Entity cache invalidations waiting for the store (Redis) to take them; while above 0 this process serves nothing from the cache.',
      registers,
    }),
  };
}

/** What the process lost instead of exporting: trace spans and log lines. */
function droppedSeries(registers: Registry[]) {
  return {
    shed: new Counter({
      name: 'gateway_shed_total',
      help: 'New requests refused by load shedding (503 REQUEST_CONCURRENCY_LIMITED), by the class SHED_CLASS_RULES gave them: the gateway was past its bound for that class.',
      labelNames: ['class'] as const,
      registers,
    }),
    traceSpansDropped: new Counter({
      name: 'gateway_trace_spans_dropped_total',
      help: 'Spans the tracing SDK lost instead of exporting: its queue was full (queue_full) or an export failed or timed out (export_failed: the collector is down or refused them).',
      labelNames: ['reason'] as const,
      registers,
    }),
    logLinesDropped: logLinesDropped(registers),
  };
}

/** Shadow traffic (SHADOW_URL, SHADOW_SUPERGRAPH): what became of each mirrored query. */
function shadowSeries(registers: Registry[]) {
  return {
    shadow: new Counter({
      name: 'gateway_shadow_total',
      help: 'Sampled queries mirrored to a shadow after their client was answered, by target (url, supergraph) and outcome: same, differs, shadow_error (down, timed out, too large, not JSON), dropped (SHADOW_MAX_CONCURRENCY in flight).',
      labelNames: ['target', 'outcome'] as const,
      registers,
    }),
  };
}
