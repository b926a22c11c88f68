import type { CoreSettings } from '../core-settings.js';
import { LOG_LEVELS, type LoggerSettings, type LogLevel } from '../logger.js';
import type { ApiKeyEntry } from '../plugins/api-key/index.js';
import type { AuthorizationErrorLocation, AuthorizationMode, ClaimPolicy } from '../plugins/authorization/index.js';
import type { RateLimitFailureMode, RateLimitKey } from '../plugins/rate-limit/options.js';
import type { TracingConfig } from '../plugins/tracing/options.js';
import { type SubgraphOverride, subgraphKey } from '../subgraph-overrides.js';
import type { PluginModuleEntry } from './plugin-modules.js';

export type { ApiKeyEntry, LogLevel, SubgraphOverride };
export { LOG_LEVELS, subgraphKey };
export const GATEWAY_ENVS = ['production', 'development'] as const;
export const RUNTIMES = ['nest', 'bare'] as const;
export const ADAPTERS = ['fastify', 'express'] as const;

export const PLUGIN_NAMES = [
  'header-rules',
  'client-awareness',
  'jwt',
  'api-key',
  'rate-limit',
  'response-headers',
] as const;
/** Named plugin sets, for GATEWAY_PLUGINS and the benchmark. */
export const PLUGIN_PROFILES: Readonly<Record<string, readonly PluginName[]>> = {
  none: [],
  jwt: ['jwt'],
  'jwt+client-awareness': ['jwt', 'client-awareness'],
  'rate-limit': ['rate-limit'],
  'rate-limit+api-key': ['api-key', 'rate-limit'],
  'rate-limit+api-key+jwt': ['jwt', 'api-key', 'rate-limit'],
  full: ['header-rules', 'client-awareness', 'jwt', 'rate-limit', 'response-headers'],
};
export const RATE_LIMIT_COSTS = ['request', 'estimated'] as const;
/** TRUSTED_DOCUMENTS_MODE; see the trusted-documents plugin. */
export const TRUSTED_DOCUMENTS_MODES = ['off', 'allow-ids', 'enforce'] as const;

export type PluginName = (typeof PLUGIN_NAMES)[number];
export type GatewayEnv = (typeof GATEWAY_ENVS)[number];
/** `nest`: the gateway mounted by GatewayModule in a NestJS app; `bare`: the framework alone. */
export type Runtime = (typeof RUNTIMES)[number];
export type AdapterName = (typeof ADAPTERS)[number];

/** The whole gateway configuration: one shape, every default filled in by `parseConfig`. */
export const ENTITY_CACHE_STORES = ['off', 'memory', 'redis'] as const;
export type EntityCacheStore = (typeof ENTITY_CACHE_STORES)[number];

export interface GatewayConfig extends CoreSettings, TracingConfig, LoggerSettings {
  /** Production hides introspection, the landing page, stack traces and internal messages. */
  readonly env: GatewayEnv;
  readonly runtime: Runtime;
  readonly adapter: AdapterName;
  /** Processes serving under node:cluster (GATEWAY_WORKERS; `auto` resolved to the cores); 1: no cluster. */
  readonly workers: number;
  readonly host: string;
  readonly port: number;
  /** Absolute path of the supergraph SDL file. */
  readonly supergraphPath: string;
  /** Set: the supergraph is fetched from this URL instead of `supergraphPath` (never logged). */
  readonly supergraphUrl?: string;
  /** Bounds each fetch of `supergraphUrl`, headers and body. */
  readonly supergraphUrlTimeoutMs: number;
  /** A larger answer from `supergraphUrl` is abandoned mid-read. */
  readonly supergraphUrlMaxBytes: number;
  /** Answers in gzip or brotli when the client accepts them (COMPRESSION). */
  readonly compression: boolean;
  /** Answers smaller than this (bytes) are sent uncompressed. */
  readonly compressionMinBytes: number;
  /** A client must send its whole request within this (then 408); the same on every mount. */
  readonly requestTimeoutMs: number;
  /** A client must send its headers within this; at most `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  /** Idle client keep-alive connections close after this (above common load-balancer idle timeouts). */
  readonly keepAliveTimeoutMs: number;
  /** A client connection whose unread answer bytes make no progress for this long is closed. */
  readonly stalledWriteTimeoutMs: number;
  /** Answer bytes held for clients that have not read them, all clients together (adapters/src/unread-bytes.ts). */
  readonly unreadBytesMaxTotal: number;
  /** The same for one client address; unset, a quarter of `unreadBytesMaxTotal`. */
  readonly unreadBytesMaxPerClient?: number | undefined;
  /** Answers one client address may have unfinished (being built or not yet flushed); one more gets 429. */
  readonly unreadAnswersMaxPerClient: number;
  /** How long in-flight requests may take to finish after SIGTERM. */
  readonly shutdownGraceMs: number;
  /** Time between turning `/ready` to 503 and closing the listener, for load balancers to notice. */
  readonly shutdownDelayMs: number;
  /** Prometheus metrics (plugins/metrics/). */
  readonly metricsEnabled: boolean;
  /** Set: metrics are served only on a listener of their own on this port (not public); unset: on `port`. */
  readonly metricsPort?: number;
  readonly metricsPath: string;
  /** Distinct operation names kept as label values; later ones are counted as `__other`. */
  readonly metricsMaxOperationNames: number;
  /** METRICS_OPERATION_NAME_MIN_COUNT: sightings a name needs before it takes a label value. */
  readonly metricsOperationNameMinCount: number;

  /** Enabled plugins, in the order their hooks run (GATEWAY_PLUGINS, profiles expanded). */
  readonly plugins: readonly PluginName[];
  /** The operator's own plugin modules (GATEWAY_CONFIG_FILE `plugins` entries with a `module`), loaded by the process. */
  readonly pluginModules?: readonly PluginModuleEntry[];
  readonly jwtJwksUrl?: string;
  readonly jwtJwksFile?: string;
  readonly jwtSecret?: string;
  readonly jwtIssuer?: string;
  readonly jwtAudience?: readonly string[];
  readonly jwtAlgorithms: readonly string[];
  readonly jwtRequired: boolean;
  /** Claim name → subgraph request header, e.g. `{ sub: 'x-user-id' }`. */
  readonly jwtClaimHeaders: Readonly<Record<string, string>>;
  readonly jwtHeader: string;
  readonly jwtPrefix: string;
  readonly jwtCookie?: string;
  readonly jwtClockToleranceSec: number;
  readonly jwtJwksTimeoutMs: number;
  readonly jwtJwksCooldownMs: number;
  readonly jwtJwksCacheMaxAgeMs: number;
  readonly jwtForwardToken: boolean;
  /** `{ consumer, key }` or `{ consumer, sha256 }` (hashed at rest). */
  readonly apiKeys: readonly ApiKeyEntry[];
  readonly apiKeyHeader: string;
  readonly clientNameClaim: string;
  readonly clientVersionClaim: string;
  /** Checked by the header-rules plugin when it is built. */
  readonly headerRules?: unknown;
  /** header-rules: bytes of one forwarded value / of all forwarded headers; over either, 431 before any subgraph. */
  readonly headerRulesMaxValueBytes: number;
  readonly headerRulesMaxTotalBytes: number;
  readonly responseHeaders: readonly { readonly name: string; readonly value: string }[];
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  readonly rateLimitKey: RateLimitKey;
  /** `request`: each request costs 1; `estimated`: demand control's cost estimate (at least 1). */
  readonly rateLimitCost: (typeof RATE_LIMIT_COSTS)[number];
  readonly rateLimitFailureMode: RateLimitFailureMode;
  /** Set: the rate limit is kept in Redis (shared by replicas); unset: in memory. */
  readonly redisUrl?: string;

  /** Trusted documents manifest (absolute path); unset: trusted documents are off. */
  readonly trustedDocuments?: string;
  /** With a manifest the default is `enforce`, without one `off` (filled in by the parser). */
  readonly trustedDocumentsMode: (typeof TRUSTED_DOCUMENTS_MODES)[number];

  /** Operation limits: always on. */
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxRootFields: number;
  readonly maxCharacters: number;
  /** Field selections written in the document, checked before validation (OPERATION_LIMIT_EXCEEDED). */
  readonly maxFields: number;
  /** Demand control: operations whose estimated cost is above this get 400 COST_ESTIMATED_TOO_EXPENSIVE; 0 turns it off. */
  readonly maxCost: number;
  /** ENTITY_CACHE: where subgraph answers are kept across requests (plugins/entity-cache/). */
  readonly entityCache: EntityCacheStore;
  readonly entityCacheMaxBytes: number;
  readonly entityCacheMaxEntryBytes: number;
  readonly entityCacheTtlDefault?: number;
  readonly entityCacheTtlSubgraphs: Readonly<Record<string, number>>;
  readonly entityCacheTtlTypes: Readonly<Record<string, number>>;
  readonly entityCacheMaxTtl: number;
  readonly entityCacheSharedPublicSubgraphs: readonly string[];
  /** ENTITY_CACHE=redis: where (ENTITY_CACHE_REDIS_URL, else REDIS_URL; the parser fills it in). */
  readonly entityCacheRedisUrl?: string;
  /** Set: the metrics listener serves the invalidation endpoint to callers with this bearer token. */
  readonly entityCacheInvalidationToken?: string;
  /** Identical queries in flight at once share one execution (plugins/inbound-dedup/); never mutations. */
  readonly inboundDeduplicate: boolean;
  /** What a request that selects a field it may not see gets (AUTHORIZATION_MODE). */
  readonly authorizationMode: AuthorizationMode;
  /** The JWT claim `@requiresScopes` reads. */
  readonly authorizationScopeClaim: string;
  /** The built-in `@policy` rules (AUTHORIZATION_POLICIES). */
  readonly authorizationPolicies: readonly ClaimPolicy[];
  /** How long a policy decider may take before the request is refused (AUTHORIZATION_POLICY_TIMEOUT_MS). */
  readonly authorizationPolicyTimeoutMs: number;
  /** false: the directives are not enforced at all (AUTHORIZATION_DIRECTIVES_ENABLED). */
  readonly authorizationDirectivesEnabled: boolean;
  /** Report and log what would be refused, refuse nothing (AUTHORIZATION_DRY_RUN). */
  readonly authorizationDryRun: boolean;
  /** Where refused fields' errors go (AUTHORIZATION_ERRORS). */
  readonly authorizationErrors: AuthorizationErrorLocation;
  /** A throttled log line per request with refusals (AUTHORIZATION_LOG). */
  readonly authorizationLog: boolean;
  /** Size assumed for list fields that declare none (`@listSize`) when estimating costs. */
  readonly defaultListSize: number;
}
