import type { GatewayContext } from '../contract/index.js';
import { shareableHeaders } from '../dedup/shareable-headers.js';
import {
  badResponse,
  type Failure,
  type Fetched,
  parseGraphQLResponse,
  type SubgraphAnswer,
  tooLarge,
} from './outcomes.js';
import type { SubgraphHooks } from './subgraph-hooks.js';

/**
 * Hands one caller its answer: its own response hooks and response budget, and its own
 * objects (a caller that joined a shared fetch parses the shared text again, which is
 * cheaper than a structured clone, and @apollo/gateway mutates what it is given).
 */
export function deliver(
  fetched: Fetched,
  context: GatewayContext | undefined,
  joined: boolean,
  hooks: SubgraphHooks,
  maxResponseBytes: number,
): { answer: SubgraphAnswer } | { failure: Failure } {
  if ('failure' in fetched) return fetched;
  const { received } = fetched;
  if (context) {
    // A caller that joined another's fetch gets only the headers about the answer, never its cookies.
    const headers = joined ? shareableHeaders(received.headers) : received.headers;
    const failed = hooks.response(context, headers, received.answer);
    if (failed) return { failure: failed };
    if (!context.responseBudget.take(received.bytes)) {
      return { failure: tooLarge(maxResponseBytes, context, received.status) };
    }
  }
  if (!joined) return { answer: received.answer };
  const answer = parseGraphQLResponse(received.text ?? '');
  // Cannot happen (the same text parsed for the first caller); answered as a bad response all the same.
  if (!answer) return { failure: badResponse(received.status) };
  return { answer };
}
