import type { FormattedExecutionResult, GraphQLFormattedError } from 'graphql';
import type { RequestScope } from './request-scope.js';

/** How an answer is delivered: plain JSON, graphql-sse's event stream, or multipart (a subscription's or `@defer`'s). */
export type Transport = 'json' | 'event-stream' | 'multipart-subscription' | 'multipart-defer';

/** One operation as a streaming transport received it (graphql-ws `subscribe`, a graphql-sse request). */
export interface StreamParams {
  readonly query?: string | undefined;
  readonly variables?: Readonly<Record<string, unknown>> | null | undefined;
  readonly operationName?: string | null | undefined;
  readonly extensions?: Readonly<Record<string, unknown>> | null | undefined;
}

/**
 * What an operation came to: one answer (a query, a mutation, or any refusal, with the HTTP
 * status a plain request would have had), or a subscription's events.
 */
export type StreamOutcome =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly result: FormattedExecutionResult;
      /** Headers the refusal carries when it is sent as an HTTP answer (`Retry-After`…). */
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'stream'; readonly events: AsyncIterableIterator<FormattedExecutionResult> };

/**
 * A streaming connection slot: its release, or why there is none, with the HTTP status the
 * transport answers before any stream opens (429 this client's share is taken, 503 all are, or draining).
 */
export type ConnectionGrant =
  | { readonly granted: true; readonly release: () => void }
  | { readonly granted: false; readonly status: number; readonly error: GraphQLFormattedError };

export interface SubscriptionLimits {
  readonly maxConnections: number;
  readonly maxPerConnection: number;
  readonly heartbeatMs: number;
  readonly multipartHeartbeatMs: number;
  readonly connectionInitTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxBufferedEvents: number;
}

/**
 * What the WebSocket and SSE transports (adapters/) ask of the gateway. Each operation goes
 * through `operate`: the same context, auth, checks, plugins and log line as an HTTP request.
 */
export interface SubscriptionEndpoint {
  readonly limits: SubscriptionLimits;
  /**
   * A connection slot for a client at `address` (the socket's: nothing is authenticated yet when
   * a WebSocket upgrades), within SUBSCRIPTION_MAX_CONNECTIONS and SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT.
   */
  openConnection(address: string): ConnectionGrant;
  /**
   * Authenticates a connection (its headers, `connection_init`'s merged in): undefined, or the
   * refusal as an HTTP request would get it (401 a bad credential, 503 load shedding…), coded.
   */
  authenticate(scope: RequestScope): Promise<(StreamOutcome & { kind: 'answer' }) | undefined>;
  operate(scope: RequestScope, params: StreamParams): Promise<StreamOutcome>;
  /**
   * The transport that answers a request with this `Accept`, among `offers` (those the request can
   * have, in the server's order for a tie): the client's preference by q-value, then by order;
   * `json` as the fallback; undefined when the client refused every one it could have (406
   * NOT_ACCEPTABLE). The rules are in the gateway's transport-choice.ts.
   */
  transportFor(accept: string | readonly string[] | undefined, offers: readonly Transport[]): Transport | undefined;
  /** `listener` runs when the gateway begins draining (every subscription has completed): close connections. */
  onDrain(listener: () => void): void;
}
