import { createContext } from '../../src/context.js';
import type { SubgraphDataSource } from '../../src/subgraph-fetch/data-source.js';

/** The options @apollo/gateway passes to a data source for one fetch of a client operation. */
export type ProcessOptions = Parameters<SubgraphDataSource['process']>[0];

export interface OperationInput {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  headers?: Record<string, string>;
  extensions?: Record<string, unknown>;
  requestId?: string;
  /** The client's own request headers (what header rules propagate from). */
  clientHeaders?: Record<string, string>;
  /** MAX_RESPONSE_BYTES for this request. Default: no limit. */
  maxResponseBytes?: number;
}

export function incomingOperation(input: OperationInput): ProcessOptions {
  const requestId = input.requestId ?? 'req-1';
  return {
    kind: 'incoming operation',
    request: {
      query: input.query,
      variables: input.variables,
      operationName: input.operationName,
      ...(input.extensions ? { extensions: input.extensions } : {}),
      http: {
        method: 'POST',
        url: 'http://gateway.invalid/graphql',
        headers: new Map(Object.entries(input.headers ?? {})),
      },
    },
    context: createContext(
      {
        requestId,
        method: 'POST',
        url: '/graphql',
        headers: input.clientHeaders ?? {},
        ip: '127.0.0.1',
        startedAt: process.hrtime.bigint(),
        appendResponseHeader: () => {},
      },
      {},
      input.maxResponseBytes,
    ),
    incomingRequestContext: {},
    document: undefined,
  } as unknown as ProcessOptions;
}
