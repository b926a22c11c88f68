import type { ApiKeyEntry } from '../plugins/api-key-auth.js';
import type { RateLimitFailureMode, RateLimitKey } from '../plugins/rate-limit/options.js';

export type { ApiKeyEntry };
export const GATEWAY_ENVS = ['production', 'development'] as const;
export const RUNTIMES = ['nest', 'bare'] as const;
export const ADAPTERS = ['fastify', 'express'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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

export type PluginName = (typeof PLUGIN_NAMES)[number];
export type GatewayEnv = (typeof GATEWAY_ENVS)[number];
/** `nest`: the gateway mounted by GatewayModule in a NestJS app; `bare`: the framework alone. */
export type Runtime = (typeof RUNTIMES)[number];
export type AdapterName = (typeof ADAPTERS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Per-subgraph settings; unset fields fall back to the supergraph URL and `subgraphTimeoutMs`. */
/** Subgraph names compare in lower case with `-` as `_`, since env names cannot hold `-`. */
export function subgraphKey(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

export interface SubgraphOverride {
  /** Replaces the URL written in the supergraph (like Apollo Router's `override_subgraph_url`). */
  readonly url?: string;
  readonly timeoutMs?: number;
  /** Replaces `subgraphMaxResponseBytes` for this subgraph. */
  readonly maxResponseBytes?: number;
}

/** The whole gateway configuration: one shape, every default filled in by `parseConfig`. */
export interface GatewayConfig {
  /** Production hides introspection, the landing page, stack traces and internal messages. */
  readonly env: GatewayEnv;
  readonly runtime: Runtime;
  readonly adapter: AdapterName;
  readonly host: string;
  readonly port: number;
  readonly graphqlPath: string;
  /** Absolute path of the supergraph SDL file. */
  readonly supergraphPath: string;
  /** Keyed by subgraph name in lower case, `-` written as `_`. */
  readonly subgraphs: Readonly<Record<string, SubgraphOverride>>;
  readonly subgraphTimeoutMs: number;
  /** Max open connections per subgraph in the undici pool. */
  readonly subgraphPoolConnections: number;
  /** Idle pooled sockets are closed after this; keep it below the subgraphs' own keep-alive timeout. */
  readonly subgraphKeepAliveMs: number;
  /** A subgraph answer larger than this is aborted mid-read (SUBGRAPH_RESPONSE_TOO_LARGE). */
  readonly subgraphMaxResponseBytes: number;
  readonly bodyLimitBytes: number;
  /** A client must send its whole request within this (then 408); the same on every mount. */
  readonly requestTimeoutMs: number;
  /** A client must send its headers within this; at most `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  /** Idle client keep-alive connections close after this (above common load-balancer idle timeouts). */
  readonly keepAliveTimeoutMs: number;
  readonly introspection: boolean;
  readonly landingPage: boolean;
  /** Replace internal error messages with a generic one and strip non-code extensions. */
  readonly maskErrors: boolean;
  /** How long in-flight requests may take to finish after SIGTERM. */
  readonly shutdownGraceMs: number;
  /** Time between turning `/ready` to 503 and closing the listener, for load balancers to notice. */
  readonly shutdownDelayMs: number;
  readonly logLevel: LogLevel;
  readonly logPretty: boolean;

  /** Enabled plugins, in the order their hooks run (GATEWAY_PLUGINS, profiles expanded). */
  readonly plugins: readonly PluginName[];
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
  readonly responseHeaders: readonly { readonly name: string; readonly value: string }[];
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  readonly rateLimitKey: RateLimitKey;
  /** `request`: each request costs 1; `estimated`: demand control's cost estimate (at least 1). */
  readonly rateLimitCost: (typeof RATE_LIMIT_COSTS)[number];
  readonly rateLimitFailureMode: RateLimitFailureMode;
  /** Set: the rate limit is kept in Redis (shared by replicas); unset: in memory. */
  readonly redisUrl?: string;

  /** Operation limits: always on. */
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxRootFields: number;
  readonly maxTokens: number;
  readonly maxCharacters: number;
  /** Demand control: operations whose estimated cost is above this get 400 COST_ESTIMATED_TOO_EXPENSIVE; 0 turns it off. */
  readonly maxCost: number;
  /** Size assumed for list fields that declare none (`@listSize`) when estimating costs. */
  readonly defaultListSize: number;
  /** Subgraph bytes one request may merge into its answer; past it, RESPONSE_TOO_LARGE. */
  readonly maxResponseBytes: number;
}
