import { boolean, duration, integer, oneOf, type SettingsOf, withDefault } from '../settings/kinds.js';
import { SLOW_CLIENT_POLICIES, type SlowClientPolicy } from './slow-client.js';

/** The `subscriptions` group's schemas (SUBSCRIPTIONS, SUBSCRIPTION_*), by config name, which the config parses it with. */
export const SUBSCRIPTION_VALUES = Object.freeze({
  enabled: withDefault(boolean, true),
  maxConnections: withDefault(integer(1, 1_000_000), 10_000),
  maxConnectionsPerClient: integer(1, 1_000_000),
  maxPerConnection: withDefault(integer(1, 10_000), 25),
  maxPerClient: withDefault(integer(1, 1_000_000), 100),
  maxOpen: withDefault(integer(1, 10_000_000), 100_000),
  slowClient: withDefault(oneOf(SLOW_CLIENT_POLICIES), 'end'),
  maxBufferedEvents: withDefault(integer(1, 100_000), 100),
  deduplicate: withDefault(boolean, true),
  heartbeatMs: withDefault(duration(1000, 600_000), 12_000),
  multipartHeartbeatMs: withDefault(duration(100, 600_000), 5000),
  connectionInitTimeoutMs: withDefault(duration(100, 60_000), 3000),
  idleTimeoutMs: withDefault(duration(1000, 86_400_000), 60_000),
});
/** The `subscriptions` group of the configuration, as read. */
export type SubscriptionConfig = SettingsOf<typeof SUBSCRIPTION_VALUES>;

/** What the subscription transports and executor read of the configuration (SUBSCRIPTION_*). */
export interface SubscriptionSettings {
  /** SUBSCRIPTIONS: serve graphql-ws and graphql-sse at the GraphQL path. */
  readonly enabled: boolean;
  /** WebSocket, SSE and multipart connections open at once, all clients together. */
  readonly maxConnections: number;
  /** Connections one client address may hold at once (SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT). */
  readonly maxConnectionsPerClient: number;
  /** Subscriptions one connection may hold (graphql-ws, SSE single-connection mode). */
  readonly maxPerConnection: number;
  /** Subscriptions one client may hold across its connections (keyed by `clientKey`: subject, else network and consumer). */
  readonly maxPerClient: number;
  /** Events waiting for one client; one more ends its subscription (SUBSCRIPTION_SLOW_CONSUMER) or drops the oldest. */
  readonly maxBufferedEvents: number;
  /** SUBSCRIPTION_SLOW_CLIENT: what a full queue does. */
  readonly slowClient: SlowClientPolicy;
  /** SUBSCRIPTION_MAX_OPEN: subscriptions open at once, all clients together. */
  readonly maxOpen: number;
  /** Identical subgraph subscriptions share one socket (SUBSCRIPTION_DEDUPLICATE). */
  readonly deduplicate: boolean;
  /** WebSocket ping interval (clients and subgraphs); a peer that misses a pong is closed. SSE: graphql-sse's own 12 s. */
  readonly heartbeatMs: number;
  /** Multipart HTTP: an empty `{}` part this often; a client reading nothing for two of them is cut off. */
  readonly multipartHeartbeatMs: number;
  /** A WebSocket must send `connection_init` within this; and a connection without subscriptions closes after it. */
  readonly connectionInitTimeoutMs: number;
  readonly idleTimeoutMs: number;
  /** Per event, what a request may merge (MAX_RESPONSE_BYTES). */
  readonly maxResponseBytes: number;
  /** Bounds the parse that tells a subscription sent over GET from a mutation (MAX_TOKENS). */
  readonly maxTokens: number;
}

/**
 * SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT when set, else a tenth of SUBSCRIPTION_MAX_CONNECTIONS
 * (at least 1): a share that grows with the total an operator sized, so at least ten addresses
 * are needed to fill the gateway, while a NAT or office behind one address still gets a thousand
 * of the default 10,000. A fixed number would not follow a raised total.
 */
export function connectionsPerClient(maxConnections: number, configured: number | undefined): number {
  return configured ?? Math.max(1, Math.floor(maxConnections / 10));
}
