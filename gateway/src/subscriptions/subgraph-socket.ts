import type { GraphQLFormattedError } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { redactSubgraphErrors } from '../subgraph-fetch/subgraph-errors.js';
import type { SubgraphErrors } from '../subgraph-overrides.js';
import { BoundedQueue } from './bounded-queue.js';
import type { SlowClientPolicy } from './slow-client.js';
import { SubscriptionEnd } from './subscription-end.js';

/** One event a subgraph sent for a subscription: its primary fetch's answer. */
export interface SubgraphEvent {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly GraphQLFormattedError[];
}

export interface SubgraphSocketOptions {
  readonly subgraph: string;
  /** The subgraph's HTTP URL; its WebSocket is the same host and path (`http` → `ws`). */
  readonly url: string;
  /** Sent on the WebSocket upgrade and in `connection_init` (`{ headers }`): header rules' output. */
  readonly headers: Readonly<Record<string, string>>;
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName?: string | undefined;
  /** Events received and not yet taken by the client's side; one more ends it (SUBSCRIPTION_SLOW_CONSUMER). */
  readonly maxBufferedEvents: number;
  /** `drop-oldest`: one more drops the oldest waiting event instead (SUBSCRIPTION_SLOW_CLIENT). Default: `end`. */
  readonly slowClient?: SlowClientPolicy;
  /** One larger WebSocket message closes the socket (SUBGRAPH_MAX_RESPONSE_BYTES). */
  readonly maxEventBytes: number;
  /** Bounds the connection and `connection_ack` (SUBGRAPH_TIMEOUT_MS). */
  readonly connectTimeoutMs: number;
  /** Ping interval (SUBSCRIPTION_HEARTBEAT_MS): a subgraph that stops answering is noticed. */
  readonly keepAliveMs: number;
  /** SUBGRAPH_ERRORS for this subgraph: what clients see of the errors it ends a subscription with. Default: `all`. */
  readonly errors?: SubgraphErrors;
}

/** Where one subgraph subscription's messages go. */
export interface SubgraphSink {
  next(event: SubgraphEvent): void;
  /** The subgraph erred, closed its socket, or could not be reached. */
  error(end: SubscriptionEnd): void;
  complete(): void;
}

/**
 * Subscribes to a subgraph over graphql-ws (graphql-transport-ws) on a WebSocket of its own,
 * never reconnecting (a reconnect could miss events in between: the client is told and
 * resubscribes instead). Returns what closes the socket.
 */
export function openSubgraphSocket(options: SubgraphSocketOptions, sink: SubgraphSink): () => void {
  const { subgraph, headers } = options;
  const webSocketImpl = class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, {
        headers: { ...headers },
        maxPayload: options.maxEventBytes,
        handshakeTimeout: options.connectTimeoutMs,
      });
    }
  };
  const client = createClient({
    url: webSocketUrl(options.url),
    webSocketImpl,
    connectionParams: { headers: { ...headers } },
    lazy: true,
    retryAttempts: 0,
    keepAlive: options.keepAliveMs,
    connectionAckWaitTimeout: options.connectTimeoutMs,
    // graphql-ws prints to the console otherwise.
    onNonLazyError: () => {},
  });
  client.subscribe(
    {
      query: options.query,
      variables: options.variables,
      ...(options.operationName && { operationName: options.operationName }),
    },
    {
      next: (event) => sink.next(event as SubgraphEvent),
      error: (error) =>
        sink.error(
          SubscriptionEnd.fromSubgraph(
            subgraph,
            (Array.isArray(error) && redactSubgraphErrors(error, options.errors ?? 'all')) || error,
          ),
        ),
      complete: () => sink.complete(),
    },
  );
  // Dispose after the current callback: graphql-ws must not be torn down from inside its own sink.
  // dispose() waits for a connection still being made and rejects when that fails: nobody is
  // left to tell, and an unhandled rejection would end the process.
  return () => queueMicrotask(() => void Promise.resolve(client.dispose()).catch(() => {}));
}

/**
 * One client subscription on a subgraph socket of its own. Ends when the subgraph completes;
 * fails with a SubscriptionEnd when the subgraph errs, closes, or the client reads too slowly
 * (more than `maxBufferedEvents` waiting). Returning the iterator (the client left) closes the socket.
 */
export function subscribeToSubgraph(options: SubgraphSocketOptions): AsyncIterableIterator<SubgraphEvent> {
  let close = () => {};
  const queue = new BoundedQueue<SubgraphEvent>(options.maxBufferedEvents, () => close(), queueOptions(options));
  close = openSubgraphSocket(options, {
    next: (event) => queue.push(event, () => SubscriptionEnd.slowConsumer(options.maxBufferedEvents)),
    error: (end) => queue.fail(end),
    complete: () => queue.end(),
  });
  return queue;
}

/** How a client's queue treats a full buffer (SUBSCRIPTION_SLOW_CLIENT). */
export function queueOptions(options: SubgraphSocketOptions): { dropOldest: boolean } {
  return { dropOldest: options.slowClient === 'drop-oldest' };
}

function webSocketUrl(httpUrl: string): string {
  const url = new URL(httpUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
