import type { GraphQLFormattedError } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { BoundedQueue } from './bounded-queue.js';
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
  /** One larger WebSocket message closes the socket (SUBGRAPH_MAX_RESPONSE_BYTES). */
  readonly maxEventBytes: number;
  /** Bounds the connection and `connection_ack` (SUBGRAPH_TIMEOUT_MS). */
  readonly connectTimeoutMs: number;
  /** Ping interval (SUBSCRIPTION_HEARTBEAT_MS): a subgraph that stops answering is noticed. */
  readonly keepAliveMs: number;
}

/**
 * Subscribes to a subgraph over graphql-ws (graphql-transport-ws) on a WebSocket of its own:
 * one socket per client subscription, so a client's headers are its own and one slow client
 * cannot hold up another's events on a shared socket. Ends when the subgraph completes;
 * fails with a SubscriptionEnd when the subgraph errs, closes, or the client reads too slowly.
 * Returning the iterator (the client left) closes the socket.
 */
export function subscribeToSubgraph(options: SubgraphSocketOptions): AsyncIterableIterator<SubgraphEvent> {
  const { subgraph, headers } = options;
  let client: ReturnType<typeof createClient> | undefined;
  const queue = new BoundedQueue<SubgraphEvent>(options.maxBufferedEvents, () => {
    // Dispose after the current callback: graphql-ws must not be torn down from inside its own sink.
    // dispose() waits for a connection still being made and rejects when that fails: nobody is
    // left to tell, and an unhandled rejection would end the process.
    queueMicrotask(() => void Promise.resolve(client?.dispose()).catch(() => {}));
  });
  const webSocketImpl = class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, {
        headers: { ...headers },
        maxPayload: options.maxEventBytes,
        handshakeTimeout: options.connectTimeoutMs,
      });
    }
  };
  client = createClient({
    url: webSocketUrl(options.url),
    webSocketImpl,
    connectionParams: { headers: { ...headers } },
    lazy: true,
    // A reconnect could miss events in between; the client is told and resubscribes instead.
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
      next: (event) => {
        queue.push(event as SubgraphEvent, () => SubscriptionEnd.slowConsumer(options.maxBufferedEvents));
      },
      error: (error) => queue.fail(SubscriptionEnd.fromSubgraph(subgraph, error)),
      complete: () => queue.end(),
    },
  );
  return queue;
}

function webSocketUrl(httpUrl: string): string {
  const url = new URL(httpUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
