import type { GatewayContext } from '../../plugin-sdk/index.js';
import { REQUEST_ID_HEADER } from '../../plugin-sdk/index.js';
import { canonicalJson, digest } from './canonical.js';

/**
 * Request headers that say nothing about the answer (they change on every request): left out
 * of the key. Every other header the gateway sends the subgraph (forwarded by header rules, a
 * JWT claim, an API key's consumer) is part of it, so an answer that varies on one is never
 * served to a request that sent another value.
 */
const NOT_VARYING = new Set([REQUEST_ID_HEADER, 'traceparent', 'tracestate', 'baggage', 'content-type', 'accept']);

/**
 * Digest of the headers the subgraph sees, names sorted. For `valueless` ones (identity headers
 * of a public answer) only the name counts: a signed-in caller shares public answers with other
 * signed-in callers, never with anonymous ones (a subgraph may answer those differently).
 */
export function varyDigest(headers: Readonly<Record<string, string>>, valueless?: ReadonlySet<string>): string {
  const names = Object.keys(headers)
    .filter((name) => !NOT_VARYING.has(name))
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
