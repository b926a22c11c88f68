export const GATEWAY_ENVS = ['production', 'development'] as const;
export const RUNTIMES = ['nest', 'bare'] as const;
export const ADAPTERS = ['fastify', 'express'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type GatewayEnv = (typeof GATEWAY_ENVS)[number];
/** `nest`: the gateway mounted by GatewayModule in a NestJS app; `bare`: the framework alone. */
export type Runtime = (typeof RUNTIMES)[number];
export type AdapterName = (typeof ADAPTERS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Per-subgraph settings; unset fields fall back to the supergraph URL and `subgraphTimeoutMs`. */
export interface SubgraphOverride {
  /** Replaces the URL written in the supergraph (like Apollo Router's `override_subgraph_url`). */
  readonly url?: string;
  readonly timeoutMs?: number;
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
  readonly bodyLimitBytes: number;
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
}
