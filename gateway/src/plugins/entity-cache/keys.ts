import { propagation } from '@opentelemetry/api';
import type { GatewayContext } from '../../plugin-sdk/index.js';
import { REQUEST_ID_HEADER, TRACE_CONTEXT_HEADERS } from '../../plugin-sdk/index.js';
import { canonicalJson, digest } from './canonical.js';

/**
 * Trace propagation headers, whichever propagator writes them (OTEL_PROPAGATORS, or a client's
 * own tracing that a header rule forwards): W3C trace context and baggage, B3 (single and
 * multi), Jaeger (`uber-trace-id`, baggage `uberctx-*`), OpenTracing, Sentry, AWS X-Ray,
 * Google Cloud, Datadog, gRPC's binary context. They change on every request (or say only how
 * it is traced), never what the subgraph answers.
 */
const PROPAGATION_HEADERS: ReadonlySet<string> = new Set([
  ...TRACE_CONTEXT_HEADERS,
  'traceparent',
  'tracestate',
  'traceresponse',
  'baggage',
  'b3',
  'uber-trace-id',
  'jaeger-debug-id',
  'jaeger-baggage',
  'x-ot-span-context',
  'sentry-trace',
  'x-amzn-trace-id',
  'x-cloud-trace-context',
  'grpc-trace-bin',
  'elastic-apm-traceparent',
  'newrelic',
]);
/** Header name prefixes of propagators that spread their context over several headers. */
const PROPAGATION_PREFIXES = ['x-b3-', 'uberctx-', 'ot-tracer-', 'ot-baggage-', 'x-datadog-'];

/** Framing and the gateway's own request id: they say nothing about the answer either. */
const NOT_VARYING: ReadonlySet<string> = new Set([REQUEST_ID_HEADER, 'content-type', 'accept']);

/**
 * Whether a subgraph request header is left out of the key: a propagation header (above, or
 * one the registered propagator says it injects, `propagation.fields()`, so a propagator this
 * list does not know is left out too), the request id, framing.
 */
export function isNotVarying(name: string, injected: readonly string[] = propagation.fields()): boolean {
  return (
    NOT_VARYING.has(name) ||
    PROPAGATION_HEADERS.has(name) ||
    injected.includes(name) ||
    PROPAGATION_PREFIXES.some((prefix) => name.startsWith(prefix))
  );
}

/**
 * Digest of the headers the subgraph sees, names sorted. For `valueless` ones (identity headers
 * of a public answer) only the name counts: a signed-in caller shares public answers with other
 * signed-in callers, never with anonymous ones (a subgraph may answer those differently).
 */
export function varyDigest(headers: Readonly<Record<string, string>>, valueless?: ReadonlySet<string>): string {
  const injected = propagation.fields().map((name) => name.toLowerCase());
  const names = Object.keys(headers)
    .filter((name) => !isNotVarying(name.toLowerCase(), injected))
    .sort();
  return digest(...names.flatMap((name) => [name, valueless?.has(name) ? '' : (headers[name] as string)]));
}

/**
 * The caller's identity for private answers: the JWT subject and the API key's consumer, or
 * undefined for an anonymous caller (whose private answers are never kept).
 */
export function identityDigest(context: GatewayContext): string | undefined {
  const { subject, consumer } = context.identity;
  if (subject === undefined && consumer === undefined) return undefined;
  return digest('identity', subject === undefined ? '' : `s:${subject}`, consumer === undefined ? '' : `k:${consumer}`);
}

/** `query Name__products__1(` → `query(`: the planner names subgraph operations after the client's, which asks nothing of the subgraph. */
const OPERATION_NAME = /^(\s*(?:query|mutation|subscription))\s+[_A-Za-z][_0-9A-Za-z]*/;

/**
 * Digest of what the fetch asks of each entity: its operation text without the operation's
 * name (two client operations asking the same share entries) and its variables other than
 * `representations`.
 */
export function selectionDigest(query: string, variables: Readonly<Record<string, unknown>>): string {
  return digest(query.replace(OPERATION_NAME, '$1'), canonicalJson(variables));
}

/** Whether a `Vary` response header names one of `headers` (or `*`). */
export function variesOn(vary: string | string[] | undefined, headers: ReadonlySet<string>): boolean {
  if (vary === undefined || headers.size === 0) return false;
  const text = Array.isArray(vary) ? vary.join(',') : vary;
  return text.split(',').some((name) => {
    const trimmed = name.trim().toLowerCase();
    return trimmed === '*' || headers.has(trimmed);
  });
}

export interface KeyParts {
  readonly schema: string;
  readonly subgraph: string;
  readonly type: string;
  /** The entity's key digest, or `root` for a root query fetch. */
  readonly entity: string;
  readonly selection: string;
  readonly vary: string;
  /** The identity digest of a private answer; undefined for a public one. */
  readonly identity: string | undefined;
}

/**
 * `ec:<schema>:<subgraph>:<type>:<entity>:<selection>:<vary>:<p | i.identity>`: the supergraph
 * hash first, so a reload never reads an answer shaped by the previous schema; subgraph, type and
 * entity next, so an invalidation can find them (a Redis SCAN pattern, a memory scan).
 */
export function cacheKey(parts: KeyParts): string {
  const scope = parts.identity === undefined ? 'p' : `i.${parts.identity}`;
  return `ec:${parts.schema}:${parts.subgraph}:${parts.type}:${parts.entity}:${parts.selection}:${parts.vary}:${scope}`;
}

export function entityDigest(key: Readonly<Record<string, unknown>>): string {
  return digest(canonicalJson(key));
}
