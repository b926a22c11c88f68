import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { GatewayEvent, GatewayPlugin, RequestScope } from '../../contract/index.js';
import { asOptionsObject, checkKnownKeys, OptionIssues } from '../../contract/kit.js';

export const PLUGIN_NAME = 'tracing';

export interface TracingPluginOptions {
  /** Makes the HTTP server spans (the SDK's tracer; Apollo's spans use the global one). */
  tracer: Tracer;
  /** The GraphQL path, recorded as `http.route` and in the span name (`POST /graphql`). */
  route: string;
  /** Flushes and stops the SDK; called when the gateway stops. Default: nothing to stop. */
  shutdown?: () => Promise<void>;
}

/**
 * One HTTP server span per request on the GraphQL path, continuing the client's W3C
 * `traceparent`, active while Apollo Server runs the request, so @apollo/gateway's own spans
 * (`gateway.request` → `gateway.plan`, `gateway.execute` → `gateway.fetch`…) nest under it;
 * `traceparent` on every subgraph request; each fetch's outcome on its `gateway.fetch` span.
 * Records names, codes and statuses only: no header value, no variable, no document.
 */
export function tracingPlugin(options: TracingPluginOptions): GatewayPlugin {
  const given = asOptionsObject(PLUGIN_NAME, options);
  const issues = new OptionIssues();
  checkKnownKeys(issues, given, ['tracer', 'route', 'shutdown']);
  if (typeof (given.tracer as Partial<Tracer> | undefined)?.startSpan !== 'function') {
    issues.add('tracer', 'expected an OpenTelemetry Tracer');
  }
  if (typeof given.route !== 'string' || !given.route.startsWith('/')) {
    issues.add('route', `expected a path starting with "/", got ${JSON.stringify(given.route)}`);
  }
  if (given.shutdown !== undefined && typeof given.shutdown !== 'function')
    issues.add('shutdown', 'expected a function');
  issues.throwIfAny(PLUGIN_NAME);

  const { tracer, route, shutdown } = options;
  // Per request, keyed by its scope: a span outlives the handler (it ends once the response is sent).
  const spans = new WeakMap<RequestScope, Span>();
  const startSpan = (scope: RequestScope): Span => {
    const parent = propagation.extract(ROOT_CONTEXT, scope.headers);
    const span = tracer.startSpan(
      `${scope.method} ${route}`,
      { kind: SpanKind.SERVER, startTime: arrivalTime(scope), attributes: serverAttributes(scope, route) },
      parent,
    );
    spans.set(scope, span);
    return span;
  };

  return {
    name: PLUGIN_NAME,
    aroundRequest(scope, next) {
      const span = spans.get(scope) ?? startSpan(scope);
      return context.with(trace.setSpan(ROOT_CONTEXT, span), next);
    },
    onSubgraphRequest({ headers }) {
      // The active context here is @apollo/gateway's `gateway.fetch` span.
      propagation.inject(context.active(), headers);
    },
    onEvent(event) {
      recordOnActiveSpan(event);
    },
    onResponse(scope, statusCode) {
      // A request refused before the handler ran (413, bad Host) gets its span here.
      const span = spans.get(scope) ?? startSpan(scope);
      spans.delete(scope);
      span.setAttribute('http.response.status_code', statusCode);
      if (scope.operationName) span.setAttribute('graphql.operation.name', scope.operationName);
      // For a server span only 5xx is the server's failure; 4xx is the client's.
      if (statusCode >= 500) {
        span.setAttribute('error.type', String(statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
    ...(shutdown && { close: shutdown }),
  };
}

function serverAttributes(scope: RequestScope, route: string): Attributes {
  return {
    'http.request.method': scope.method,
    'http.route': route,
    // The path only: a GET's query string holds the document and variables.
    'url.path': scope.url.split('?', 1)[0] ?? route,
    'request.id': scope.requestId,
  };
}

/** `scope.startedAt` is monotonic (hrtime); spans take wall-clock time. */
function arrivalTime(scope: RequestScope): number {
  return Date.now() - Number(process.hrtime.bigint() - scope.startedAt) / 1e6;
}

/** Events are emitted inside the fetch they describe, so the active span is its `gateway.fetch`. */
function recordOnActiveSpan(event: GatewayEvent): void {
  if (event.type !== 'subgraph-fetch' && event.type !== 'subgraph-retry') return;
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  if (event.type === 'subgraph-retry') {
    span.addEvent('subgraph.retry', { 'subgraph.name': event.subgraph, attempt: event.attempt, code: event.code });
    return;
  }
  span.setAttributes({
    'subgraph.name': event.subgraph,
    'subgraph.outcome': event.outcome,
    'subgraph.retries': event.retries,
  });
  if (event.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: event.outcome });
}
