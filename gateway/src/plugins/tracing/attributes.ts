// What the spans record: OpenTelemetry's HTTP semantic conventions, and the gateway's own
// attributes under `fedgw.` so they cannot clash with a convention's name, present or future.
import type { Attributes } from '@opentelemetry/api';
import type { RequestScope, SubgraphAttempt, SubgraphAttemptEnd } from '../../plugin-sdk/index.js';
import { knownMethod, OTHER_METHOD } from '../shared/http-method.js';

/** The gateway's own attributes. */
export const ATTR = Object.freeze({
  requestId: 'fedgw.request.id',
  subgraphName: 'fedgw.subgraph.name',
  subgraphOutcome: 'fedgw.subgraph.outcome',
  subgraphRetries: 'fedgw.subgraph.retries',
  retryAttempt: 'fedgw.subgraph.attempt',
  retryCode: 'fedgw.subgraph.code',
});

/** A client-chosen value recorded as it is (the User-Agent) is cut here: a span must stay small. */
const MAX_VALUE_LENGTH = 256;

/** The HTTP server span's attributes at its start. No header value but the User-Agent, no query string. */
export function serverAttributes(scope: RequestScope, route: string): Attributes {
  const method = knownMethod(scope.method);
  const attributes: Attributes = {
    'http.request.method': method,
    'http.route': route,
    // The path only: a GET's query string holds the document and variables.
    'url.path': scope.url.split('?', 1)[0] ?? route,
    'url.scheme': scope.scheme ?? 'http',
    [ATTR.requestId]: scope.requestId,
  };
  if (method === OTHER_METHOD) attributes['http.request.method_original'] = scope.method.slice(0, 32);
  const host = hostAndPort(scope.headers.host, scope.scheme);
  if (host) {
    attributes['server.address'] = host.address;
    attributes['server.port'] = host.port;
  }
  if (scope.ip) attributes['client.address'] = scope.ip;
  const agent = scope.headers['user-agent'];
  if (agent) attributes['user_agent.original'] = agent.slice(0, MAX_VALUE_LENGTH);
  return attributes;
}

/** `Host: name:port` (or `[v6]:port`) as the spec splits it; undefined when it is not a plain host. */
function hostAndPort(
  host: string | undefined,
  scheme: RequestScope['scheme'],
): { address: string; port: number } | undefined {
  if (!host || host.length > MAX_VALUE_LENGTH) return undefined;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match?.[1]) return undefined;
  const port = match[2] === undefined ? (scheme === 'https' ? 443 : 80) : Number(match[2]);
  return { address: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/** A subgraph attempt's client span at its start (`url.full` has no user info or query string). */
export function clientAttributes(attempt: SubgraphAttempt): Attributes {
  return {
    'http.request.method': attempt.method,
    'server.address': attempt.address,
    'server.port': attempt.port,
    'url.full': attempt.url,
    [ATTR.subgraphName]: attempt.subgraph,
    // The spec's count of resends: absent on the first attempt, 1 on the first retry.
    ...(attempt.attempt > 1 && { 'http.request.resend_count': attempt.attempt - 1 }),
  };
}

/**
 * What makes an attempt an error, as the spec's `error.type`: its status for a 4xx or 5xx
 * answer (a client span's), else the gateway's code for one that got no GraphQL answer.
 */
export function attemptErrorType(end: SubgraphAttemptEnd): string | undefined {
  if (end.status !== undefined && end.status >= 400) return String(end.status);
  return end.outcome === 'ok' ? undefined : end.outcome;
}
