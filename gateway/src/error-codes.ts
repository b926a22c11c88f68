/** `extensions.code` values the gateway itself puts on errors that clients see. */
export const ClientErrorCode = {
  SUBGRAPH_TIMEOUT: 'SUBGRAPH_TIMEOUT',
  SUBGRAPH_UNAVAILABLE: 'SUBGRAPH_UNAVAILABLE',
  SUBGRAPH_BAD_RESPONSE: 'SUBGRAPH_BAD_RESPONSE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];
