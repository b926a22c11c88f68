/** `extensions.code` values the gateway itself puts on errors that clients see. */
export const ClientErrorCode = {
  SUBGRAPH_TIMEOUT: 'SUBGRAPH_TIMEOUT',
  SUBGRAPH_UNAVAILABLE: 'SUBGRAPH_UNAVAILABLE',
  SUBGRAPH_BAD_RESPONSE: 'SUBGRAPH_BAD_RESPONSE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  /** 401: no, or a bad, credential. */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** 400: a credential header that cannot even be parsed. */
  BAD_REQUEST: 'BAD_REQUEST',
  /** 429: over the rate limit; `Retry-After` says when to come back. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** 503: the rate-limit store is down and the limiter fails closed. */
  RATE_LIMIT_UNAVAILABLE: 'RATE_LIMIT_UNAVAILABLE',
  /** 400: the operation is too deep, too wide or too long. */
  OPERATION_LIMIT_EXCEEDED: 'OPERATION_LIMIT_EXCEEDED',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];
