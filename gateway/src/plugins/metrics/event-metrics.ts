import type { CircuitState, GatewayEvent, SubgraphFetchEvent } from '../../plugin-sdk/index.js';
import { codeLabel } from './codes.js';
import type { Series } from './series.js';

const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half-open'];

/** One subgraph's fetch series children, made on its first fetch and reused. */
interface SubgraphSeries {
  readonly ok: ReturnType<Series['fetchDuration']['labels']>;
  readonly timeouts: ReturnType<Series['fetchTimeouts']['labels']>;
  /** By outcome label: the failures' durations and counts. */
  readonly errors: Map<string, FailureSeries>;
}

interface FailureSeries {
  readonly duration: ReturnType<Series['fetchDuration']['labels']>;
  readonly count: ReturnType<Series['fetchErrors']['labels']>;
}

/** Turns the gateway's events (`GatewayPlugin.onEvent`) into series. Runs on the request path. */
export function eventMetrics(series: Series): (event: GatewayEvent) => void {
  const subgraphs = new Map<string, SubgraphSeries>();
  const subgraphSeries = (name: string): SubgraphSeries => {
    let found = subgraphs.get(name);
    if (!found) {
      found = {
        ok: series.fetchDuration.labels(name, 'ok'),
        timeouts: series.fetchTimeouts.labels(name),
        errors: new Map(),
      };
      subgraphs.set(name, found);
    }
    return found;
  };
  return (event) => {
    switch (event.type) {
      case 'subgraph-fetch':
        return observeFetch(series, subgraphSeries(event.subgraph), event);
      case 'subgraph-retry':
        series.retries.labels(event.subgraph, codeLabel(event.code)).inc();
        return;
      case 'circuit-state':
        // The enum pattern: one series per state, 1 for the current one, so `== 1` selects it.
        for (const state of CIRCUIT_STATES) {
          series.circuitState.labels(event.subgraph, state).set(state === event.state ? 1 : 0);
        }
        return;
      case 'supergraph-load':
        series.supergraphLoads.labels(event.source, event.outcome).inc();
        return;
      case 'trusted-documents-load':
        series.trustedDocumentsLoads.labels(event.outcome).inc();
        if (event.outcome === 'applied') series.trustedDocuments.set(event.documents);
        return;
      case 'query-plan-cache':
        (event.outcome === 'hit' ? series.planCacheHits : series.planCacheMisses).inc();
        return;
      case 'subscription':
        if (event.phase === 'start') series.subscriptionsActive.inc();
        else series.subscriptionsActive.dec();
        return;
      case 'subscription-event':
        series.subscriptionEvents.labels(event.outcome).inc();
        return;
      case 'entity-cache':
        // Types come from the supergraph (bounded), never from a client.
        series.entityCache.labels(event.subgraph, event.entityType, event.outcome).inc(event.count);
        return;
      case 'entity-cache-invalidation':
        series.entityCacheInvalidations.labels(event.outcome).inc();
        series.entityCacheInvalidationsPending.set(event.pending);
        return;
      case 'load-shed': // classes are the operator's SHED_CLASSES, never a client's words
        return void series.shed.labels(event.className).inc();
      case 'trace-spans-dropped':
        series.traceSpansDropped.labels(event.reason).inc(event.count);
        return;
      case 'shadow':
        series.shadow.labels(event.target, event.outcome).inc();
        return;
    }
  };
}

/** One subgraph fetch: its duration by outcome, failures counted by code, timeouts apart. */
function observeFetch(series: Series, subgraph: SubgraphSeries, event: SubgraphFetchEvent): void {
  const seconds = event.durationMs / 1000;
  if (event.outcome === 'ok') {
    subgraph.ok.observe(seconds);
    return;
  }
  const code = codeLabel(event.outcome);
  let failures = subgraph.errors.get(code);
  if (!failures) {
    failures = {
      duration: series.fetchDuration.labels(event.subgraph, code),
      count: series.fetchErrors.labels(event.subgraph, code),
    };
    subgraph.errors.set(code, failures);
  }
  failures.duration.observe(seconds);
  failures.count.inc();
  if (event.outcome === 'GATEWAY_TIMEOUT') subgraph.timeouts.inc();
}
