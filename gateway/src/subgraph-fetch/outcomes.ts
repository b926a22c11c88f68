// What one subgraph fetch can end as, shared by the parts in this folder.
import type { IncomingHttpHeaders } from 'node:http';
import type { GraphQLDataSource } from '@apollo/gateway';
import type { GatewayContext } from '../contract/index.js';
import { ClientErrorCode, type LegacyCode } from '../error-registry.js';

export type SubgraphAnswer = Awaited<ReturnType<GraphQLDataSource['process']>>;

export interface Failure {
  code: ClientErrorCode;
  /** The code it had before it took Apollo Router's, sent beside it for one release. */
  legacyCode?: LegacyCode;
  /** Completes "Subgraph "users" …" in the message clients see; never a URL or a body. */
  what: string;
  /** Extra fields for the log line (HTTP status, error name). */
  detail?: Record<string, unknown>;
}

/** An HTTP answer read whole that holds a GraphQL response. */
export interface Received {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: number;
  readonly answer: SubgraphAnswer;
  /** The body, kept when the fetch is shared so each further caller parses its own copy. */
  readonly text?: string;
}

/** How one HTTP attempt ended. */
export type Attempt =
  | { received: Received; unhealthy: boolean }
  | {
      failure: Failure;
      /** Counts as a failure of the subgraph for the circuit breaker. */
      unhealthy: boolean;
      /** Set when the attempt is to be retried after this wait (its budget already taken). */
      retryInMs?: number;
    };

/** How a fetch ended, after its retries. */
export type Fetched = ({ received: Received } | { failure: Failure }) & { readonly retries: number };

/** What a caller's `subgraph-fetch` event and failure log line say. */
export interface Report {
  context: GatewayContext | undefined;
  startedAt: number;
  retries?: number;
  /** The caller joined a fetch another caller started (in-flight deduplication). */
  joined?: boolean;
}

/** An answer that is not a GraphQL response: as Apollo Router says, an HTTP error unless its status was 2xx. */
export function badResponse(status: number): Failure {
  return {
    code: isSuccess(status) ? ClientErrorCode.SUBREQUEST_MALFORMED_RESPONSE : ClientErrorCode.SUBREQUEST_HTTP_ERROR,
    legacyCode: 'SUBGRAPH_BAD_RESPONSE',
    what: `answered HTTP ${status} without a GraphQL response`,
    detail: { status },
  };
}

/**
 * SUBGRAPH_RESPONSE_TOO_LARGE when the subgraph's own limit was hit first, else
 * RESPONSE_TOO_LARGE: the request's answer is over its budget (marked exceeded).
 */
export function tooLarge(maxResponseBytes: number, context: GatewayContext | undefined, status: number): Failure {
  if (maxResponseBytes <= (context?.responseBudget.remaining ?? Infinity)) {
    return {
      code: ClientErrorCode.SUBGRAPH_RESPONSE_TOO_LARGE,
      what: `answered with more than ${maxResponseBytes} bytes`,
      detail: { status },
    };
  }
  context?.responseBudget.exceed();
  return {
    code: ClientErrorCode.RESPONSE_TOO_LARGE,
    what: 'answered past the response size limit',
    detail: { status },
  };
}

/** A GraphQL response: `data` an object or null (or absent with errors), `errors` a list. */
export function parseGraphQLResponse(text: string): SubgraphAnswer | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // not JSON: reported as a bad response by the caller
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { data, errors } = parsed as { data?: unknown; errors?: unknown };
  const dataOk = data === null || (typeof data === 'object' && !Array.isArray(data));
  const hasData = 'data' in parsed;
  if (hasData && !dataOk) return undefined;
  if (errors !== undefined && !Array.isArray(errors)) return undefined;
  if (!hasData && errors === undefined) return undefined;
  return parsed as SubgraphAnswer;
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
