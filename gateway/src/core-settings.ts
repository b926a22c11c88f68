import type { ClientAddressSettings } from './client-address/index.js';
import type { OriginSettings } from './origin-policy/settings.js';
import type { ResilienceSettings } from './resilience/per-subgraph.js';
import { boolean, byteSize, integer, type SettingsOf, withDefault } from './settings/kinds.js';
import type { SUBGRAPH_FETCH_VALUES, SubgraphOverride } from './subgraph-overrides.js';
import type { SubscriptionConfig } from './subscriptions/settings.js';
import type { SUPERGRAPH_VALUES } from './supergraph/settings.js';
import type { UploadConfig } from './uploads/settings.js';

// The groups the core reads are typed from the schemas the config parses them with (SettingsOf),
// kept beside their readers (SUBSCRIPTION_VALUES, SUBGRAPH_FETCH_VALUES…): one place each, and
// `ConfigServesItsReaders` (config/types.ts) checks that the parsed config is a CoreSettings.

/** The `http` settings the core reads (BODY_LIMIT, COMPRESSION, COMPRESSION_MIN_BYTES), by config name. */
export const CORE_HTTP_VALUES = Object.freeze({
  bodyLimitBytes: withDefault(byteSize(1024, 100 * 1024 ** 2), 2 * 1024 ** 2),
  compression: withDefault(boolean, true),
  compressionMinBytes: withDefault(integer(0, 100 * 1024 ** 2), 1024),
});

/** The `limits` the core applies itself (MAX_TOKENS, BATCHING_MAX_OPERATIONS, MAX_RESPONSE_BYTES). */
export const CORE_LIMIT_VALUES = Object.freeze({
  maxTokens: withDefault(integer(10, 1_000_000), 5000),
  batchingMaxOperations: withDefault(integer(0, 1000), 0),
  maxResponseBytes: withDefault(byteSize(1024, 1024 ** 3), 10 * 1024 ** 2),
});

/** What every subgraph gets (`subgraphDefaults`): how it is fetched, retried and broken. */
export type SubgraphDefaults = SettingsOf<typeof SUBGRAPH_FETCH_VALUES> & ResilienceSettings;

/** What the gateway core reads of the configuration (a GatewayConfig is one). */
export interface CoreSettings extends ClientAddressSettings {
  /** CORS_*: the origin policy's settings. */
  readonly cors: OriginSettings;
  readonly graphqlPath: string;
  /** SUPERGRAPH_POLL_INTERVAL_MS: how often the source is checked for a new supergraph (hot reload); 0 turns it off. */
  readonly supergraph: SettingsOf<Pick<typeof SUPERGRAPH_VALUES, 'pollIntervalMs'>>;
  /** SUBGRAPH_*: how every subgraph is asked (timeouts, pool, size limit, deduplication, retries, breaker)… */
  readonly subgraphDefaults: SubgraphDefaults;
  /** …and each one's overrides, keyed by subgraph name in lower case, `-` written as `_`. */
  readonly subgraphs: Readonly<Record<string, SubgraphOverride>>;
  /** Who runs a query plan: `lean` (ours, executor/) or `apollo` (@apollo/gateway's own executeQueryPlan). */
  readonly queryPlanExecutor: 'lean' | 'apollo';
  /** Who plans queries and mutations on the lean path: `apollo` (@apollo/query-planner) or `hive` (ADR 061). */
  readonly queryPlanner: 'apollo' | 'hive';
  /** BODY_LIMIT and COMPRESSION*: what the adapters are told of the request and answer bodies. */
  readonly http: SettingsOf<typeof CORE_HTTP_VALUES>;
  readonly introspection: boolean;
  readonly landingPage: boolean;
  /** Replace internal error messages with a generic one and strip non-code extensions. */
  readonly maskErrors: boolean;
  /** MAX_TOKENS, BATCHING_MAX_OPERATIONS, MAX_RESPONSE_BYTES. */
  readonly limits: SettingsOf<typeof CORE_LIMIT_VALUES>;
  /** SUBSCRIPTIONS and SUBSCRIPTION_*: graphql-ws, graphql-sse and multipart at the GraphQL path. */
  readonly subscriptions: SubscriptionConfig;
  /** UPLOADS and UPLOAD_*: file uploads, streamed to the subgraph (uploads/). */
  readonly uploads: UploadConfig;
  /** APOLLO_TELEMETRY: let @apollo/gateway send its usage metrics to Apollo (off: no outbound connection). */
  readonly apolloTelemetry: boolean;
}
