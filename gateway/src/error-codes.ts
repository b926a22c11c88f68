/** `extensions.code` values the gateway itself puts on errors that clients see. */
export const ClientErrorCode = {
  SUBGRAPH_TIMEOUT: 'SUBGRAPH_TIMEOUT',
  SUBGRAPH_UNAVAILABLE: 'SUBGRAPH_UNAVAILABLE',
  SUBGRAPH_BAD_RESPONSE: 'SUBGRAPH_BAD_RESPONSE',
  /** A subgraph's answer was larger than SUBGRAPH_MAX_RESPONSE_BYTES; its read was aborted. */
  SUBGRAPH_RESPONSE_TOO_LARGE: 'SUBGRAPH_RESPONSE_TOO_LARGE',
  /** The answer would be larger than MAX_RESPONSE_BYTES; it is replaced by this one error. */
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
  /** 400: the operation's estimated cost is over MAX_COST (the same code as Apollo Router's). */
  COST_ESTIMATED_TOO_EXPENSIVE: 'COST_ESTIMATED_TOO_EXPENSIVE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  /** 401: no, or a bad, credential. */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** 400: a credential header that cannot even be parsed. */
  BAD_REQUEST: 'BAD_REQUEST',
  /** 429: over the rate limit; `Retry-After` says when to come back. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** 503: the rate-limit store is down and the limiter fails closed. */
  RATE_LIMIT_UNAVAILABLE: 'RATE_LIMIT_UNAVAILABLE',
  /** 400: the request names no runnable operation (unknown name, several and no name). Apollo Server's code. */
  OPERATION_RESOLUTION_FAILURE: 'OPERATION_RESOLUTION_FAILURE',
  /** 400: a subscription sent over plain HTTP. */
  SUBSCRIPTION_NOT_SUPPORTED: 'SUBSCRIPTION_NOT_SUPPORTED',
  /** 400: the operation is too deep, too wide or too long. */
  OPERATION_LIMIT_EXCEEDED: 'OPERATION_LIMIT_EXCEEDED',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];
