import { getOperationAST, parse } from 'graphql';
import type { RequestScope, StreamParams } from '../contract/index.js';

/**
 * The HTTP method Apollo Server is told an operation came with, so its own rule (GET runs
 * queries only: anything else 405 `BAD_REQUEST`) holds on the streaming transports as on plain
 * HTTP. An `EventSource` is a GET any page may open cross-site, cookies included, without a
 * preflight: a mutation sent that way must not run. A WebSocket message and an SSE POST count as
 * POST (a cross-site page cannot send either without the browser asking, or without a token).
 * A subscription over GET is the one exception: it only reads, and GET is how graphql-sse's
 * distinct mode serves `EventSource`, so it is told POST. That takes one parse of the URL's
 * document (bounded by MAX_TOKENS, as Apollo's own); a document sent by id only stays GET.
 */
export function methodForApollo(scope: RequestScope, params: StreamParams, maxTokens: number): 'GET' | 'POST' {
  if (scope.method !== 'GET') return 'POST';
  return isSubscription(params, maxTokens) ? 'POST' : 'GET';
}

/** The query string of a request URL, for Apollo's `http.search` (trusted documents read GET ids there). */
export function searchOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
}

function isSubscription(params: StreamParams, maxTokens: number): boolean {
  if (typeof params.query !== 'string') return false;
  try {
    const document = parse(params.query, { noLocation: true, maxTokens });
    return getOperationAST(document, params.operationName ?? undefined)?.operation === 'subscription';
  } catch {
    // Apollo Server parses it again and answers the syntax error.
    return false;
  }
}
