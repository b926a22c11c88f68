import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { GatewayEvent, GatewayPlugin, RequestScope } from '../../plugin-sdk/index.js';
import { asOptionsObject, checkKnownKeys, OptionIssues } from '../../plugin-sdk/index.js';
import { knownMethod } from '../shared/http-method.js';
import { ATTR, attemptErrorType, clientAttributes, serverAttributes } from './attributes.js';

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
 * One HTTP server span per request on the GraphQL path, continuing the client's trace
 * context (OTEL_PROPAGATORS), active while Apollo Server runs the request and while its
 * `onResponse` hooks log, so @apollo/gateway's own spans (`gateway.request` → `gateway.plan`,
 * `gateway.execute` → `gateway.fetch`…) nest under it; under each `gateway.fetch`, one HTTP
 * client span per attempt, whose context the subgraph receives; each fetch's outcome on its
 * `gateway.fetch` span. Records names, codes and statuses only: no header value (but the
 * User-Agent), no variable, no document, no query string.
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
  const spans = new WeakMap<RequestScope, Traced>();
  const startSpan = (scope: RequestScope): Traced => {
    // The client's trace context, and its baggage when OTEL_PROPAGATORS reads it.
    const parent = propagation.extract(ROOT_CONTEXT, scope.headers);
    const span = tracer.startSpan(
      `${knownMethod(scope.method)} ${route}`,
      { kind: SpanKind.SERVER, startTime: arrivalTime(scope), attributes: serverAttributes(scope, route) },
      parent,
    );
    const traced = { span, context: trace.setSpan(parent, span) };
    spans.set(scope, traced);
    return traced;
  };

  return {
    name: PLUGIN_NAME,
    aroundRequest(scope, next) {
      return context.with((spans.get(scope) ?? startSpan(scope)).context, next);
    },
    onSubgraphRequest({ headers }) {
      // The active context here is @apollo/gateway's `gateway.fetch` span. Each HTTP attempt
      // replaces it with its client span's; a subscription's socket keeps this one.
      propagation.inject(context.active(), headers);
    },
    onSubgraphAttempt(attempt) {
      const parent = context.active();
      const span = tracer.startSpan(
        attempt.method,
        { kind: SpanKind.CLIENT, attributes: clientAttributes(attempt) },
        parent,
      );
      propagation.inject(trace.setSpan(parent, span), attempt.headers);
      return (end) => {
        if (end.status !== undefined) span.setAttribute('http.response.status_code', end.status);
        const errorType = attemptErrorType(end);
        if (errorType !== undefined) {
          span.setAttribute('error.type', errorType);
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: end.sent ? errorType : 'circuit breaker open: the request was not sent',
          });
        }
        span.end();
      };
    },
    onEvent(event) {
      recordOnActiveSpan(event);
    },
    onResponse(scope, statusCode) {
      // A request refused before the handler ran (413, bad Host) gets its span here.
      const { span } = spans.get(scope) ?? startSpan(scope);
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

/** A request's server span, and the context it runs in (the span, with the client's baggage). */
interface Traced {
  readonly span: Span;
  readonly context: Context;
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
    span.addEvent('fedgw.subgraph.retry', {
      [ATTR.subgraphName]: event.subgraph,
      [ATTR.retryAttempt]: event.attempt,
      [ATTR.retryCode]: event.code,
    });
    return;
  }
  span.setAttributes({
    [ATTR.subgraphName]: event.subgraph,
    [ATTR.subgraphOutcome]: event.outcome,
    [ATTR.subgraphRetries]: event.retries,
  });
  if (event.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: event.outcome });
}
