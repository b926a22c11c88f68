import type { ClientAddressHeader, TrustedProxies } from './client-address/index.js';
import type { OriginSettings } from './origin-policy/settings.js';
import type { ResilienceSettings } from './resilience/config.js';
import type { SubgraphOverride } from './subgraph-overrides.js';
import type { SlowClientPolicy } from './subscriptions/slow-client.js';

/** What the gateway core reads of the configuration (a GatewayConfig is one). */
export interface CoreSettings extends ResilienceSettings {
  /** CORS_*: the origin policy's settings. */
  readonly cors: OriginSettings;
  readonly graphqlPath: string;
  /** TRUSTED_PROXIES: hops whose forwarded headers name the client; unset: the socket's peer is the client. */
  readonly trustedProxies?: TrustedProxies | undefined;
  /** CLIENT_ADDRESS_HEADER: the header those proxies write. */
  readonly clientAddressHeader?: ClientAddressHeader;
  /** How often the supergraph source is checked for a new supergraph (hot reload); 0 turns it off. */
  readonly supergraphPollIntervalMs: number;
  /** Keyed by subgraph name in lower case, `-` written as `_`. */
  readonly subgraphs: Readonly<Record<string, SubgraphOverride>>;
  readonly subgraphTimeoutMs: number;
  /** Max open connections per subgraph in the undici pool. */
  readonly subgraphPoolConnections: number;
  /** Idle pooled sockets are closed after this; keep it below the subgraphs' own keep-alive timeout. */
  readonly subgraphKeepAliveMs: number;
  /** A subgraph answer larger than this is aborted mid-read (SUBGRAPH_RESPONSE_TOO_LARGE). */
  readonly subgraphMaxResponseBytes: number;
  /** Identical query fetches in flight at once share one subgraph request (never mutations). */
  readonly subgraphDeduplicate: boolean;
  /** Repeated `_entities` representations in one fetch are sent once (default on; off only to measure it). */
  readonly subgraphDeduplicateRepresentations: boolean;
  /** Who runs a query plan: `lean` (ours, executor/) or `apollo` (@apollo/gateway's own executeQueryPlan). */
  readonly queryPlanExecutor: 'lean' | 'apollo';
  readonly bodyLimitBytes: number;
  /** COMPRESSION; absent reads as off, so settings built by hand need not name it. */
  readonly compression?: boolean;
  readonly compressionMinBytes?: number;
  readonly introspection: boolean;
  readonly landingPage: boolean;
  /** Replace internal error messages with a generic one and strip non-code extensions. */
  readonly maskErrors: boolean;
  readonly maxTokens: number;
  /** BATCHING_MAX_OPERATIONS: operations one HTTP request may batch; 0: batching off. */
  readonly batchingMaxOperations: number;
  /** Subgraph bytes one request may merge into its answer; past it, RESPONSE_TOO_LARGE. */
  readonly maxResponseBytes: number;
  /** SUBSCRIPTIONS and SUBSCRIPTION_*: graphql-ws and graphql-sse at the GraphQL path. */
  readonly subscriptionsEnabled: boolean;
  readonly subscriptionMaxConnections: number;
  /** Unset: a tenth of subscriptionMaxConnections (connectionsPerClient). */
  readonly subscriptionMaxConnectionsPerClient?: number | undefined;
  readonly subscriptionMaxPerConnection: number;
  readonly subscriptionMaxPerClient: number;
  readonly subscriptionMaxBufferedEvents: number;
  /** SUBSCRIPTION_MAX_OPEN: subscriptions open at once, all clients together. */
  readonly subscriptionMaxOpen: number;
  /** SUBSCRIPTION_SLOW_CLIENT: end a client's subscription when its queue is full, or drop its oldest event. */
  readonly subscriptionSlowClient: SlowClientPolicy;
  readonly subscriptionDeduplicate: boolean;
  readonly subscriptionHeartbeatMs: number;
  readonly subscriptionMultipartHeartbeatMs: number;
  readonly subscriptionConnectionInitTimeoutMs: number;
  readonly subscriptionIdleTimeoutMs: number;
  /** APOLLO_TELEMETRY: let @apollo/gateway send its usage metrics to Apollo (off: no outbound connection). */
  readonly apolloTelemetry: boolean;
}
