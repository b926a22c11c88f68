import { createHash } from 'node:crypto';
import type { GatewayContext } from '../../plugin-sdk/index.js';
import { REQUEST_ID_HEADER, TRACE_CONTEXT_HEADERS } from '../../plugin-sdk/index.js';

/**
 * Request headers left out of the key: framing and hop-by-hop headers, and the ids that are
 * new on every request (the request id and the W3C trace context), which would otherwise keep
 * any two requests apart. Each caller keeps its own of these in its own response and log
 * line; the one execution's subgraph requests carry the first caller's. `accept-encoding`
 * only chooses how this caller's bytes are compressed.
 *
 * This is a short list of what may be ignored, not a list of what matters: a header not
 * named here (a token, a cookie, an API key, a client name, anything a header rule or a
 * custom plugin reads, one added next year) always splits, so dedup is safe by construction.
 */
export const HEADERS_NOT_KEYED: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'accept-encoding',
  REQUEST_ID_HEADER,
  ...TRACE_CONTEXT_HEADERS,
]);

/** What the gateway's executor receives and the key reads. */
export interface KeyedRequest {
  /** sha256 of the document's text, from Apollo Server. */
  readonly queryHash: string;
  readonly operationName: string | null;
  readonly request: { readonly variables?: unknown; readonly extensions?: unknown };
  readonly context: GatewayContext;
}

/**
 * The key two requests must share to share one execution: the document, operation name,
 * variables and extensions, and everything the context hands to plugins and subgraph hooks
 * while the operation runs: the method, URL, client address, every request header but
 * `HEADERS_NOT_KEYED`, the verified identity (which a custom plugin may derive from
 * something other than headers), the response budget and the progressive-override labels
 * plugins set (a caller joining an execution shares its `percent(N)` draws, not its choices). Hashed, so long documents and
 * tokens are not kept as map keys.
 */
export function deduplicationKey({ queryHash, operationName, request, context }: KeyedRequest): string {
  const { scope } = context;
  const headers = Object.keys(scope.headers)
    .filter((name) => !HEADERS_NOT_KEYED.has(name))
    .sort()
    .map((name) => [name, scope.headers[name]]);
  return createHash('sha256')
    .update(
      JSON.stringify([
        queryHash,
        operationName,
        request.variables ?? null,
        request.extensions ?? null,
        scope.method,
        scope.url,
        scope.ip,
        headers,
        context.identity,
        context.responseBudget.maxBytes,
        scope.overrideLabels ?? null,
      ]),
    )
    .digest('base64url');
}
