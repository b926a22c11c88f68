import type { Workload } from '../load/workload.js';

/**
 * How a target is configured for a row: our gateway's plugins (environment) and the Router's
 * equivalent (a config in bench/router/), plus what each request must carry.
 */
export interface Setup {
  readonly key: SetupKey;
  gatewayEnv(context: SetupContext): Record<string, string>;
  /** The Router config file, or why the free Router cannot do this. */
  readonly router: { readonly config: string } | { readonly skip: string };
  /** Hive Gateway's equivalent, read by bench/src/targets/hive-gateway-config.ts; absent: Hive runs only `none`. */
  readonly hiveEnv?: Readonly<Record<string, string>>;
  /** Sent with every request (credentials). */
  readonly headers: Readonly<Record<string, string>>;
  /** Response headers the answer check requires (proves the variant is really on). */
  readonly expectHeaders?: readonly string[];
  /** A header every subgraph request must carry: checked at the subgraphs before timing. */
  readonly subgraphHeader?: { readonly name: string; readonly value: string };
  /** Requests the setup must refuse (no API key, a forged token): checked before timing. */
  readonly refusals?: readonly Refusal[];
  /**
   * The timed rows never reach the rate limit; before them, the same setup is started once
   * with this limit, and the request past it must be refused with 429.
   */
  readonly limitCheck?: { readonly max: number };
  readonly needsRedis?: boolean;
  /**
   * Requests that vary per request (§G's catalogue: products by Zipf, some users signed in),
   * sent instead of the row's query with a random user, and checked against their own answers.
   */
  readonly workload?: Workload;
  /** The gateway serves Prometheus metrics on SetupContext.metricsPort: checked before timing. */
  readonly metrics?: boolean;
  /**
   * The gateway exports traces to the bench's OTLP sink (SetupContext.otlpEndpoint): before
   * timing, `requests` requests must make the sink receive at least one export.
   */
  readonly traceCheck?: { readonly requests: number };
  /**
   * §H: a second open-loop stream sent during the warm-up and the measured window, as another
   * client (its own credentials): what the row's stream competes with. Counted apart.
   */
  readonly competing?: {
    readonly label: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly rate: number;
  };
}

export interface Refusal {
  /** What is wrong with the request, for the check's message: "no API key". */
  readonly what: string;
  /** Replaces the setup's headers for this one request. */
  readonly headers: Readonly<Record<string, string>>;
  readonly status: number;
}

export interface SetupContext {
  readonly redisUrl?: string;
  /** A free port for METRICS_PORT (setups with `metrics`). */
  readonly metricsPort?: number;
  /** The OTLP sink's base URL (setups with `traceCheck`). */
  readonly otlpEndpoint?: string;
}

export type SetupKey =
  | 'none'
  | 'demand-control-off'
  | 'authorization-off'
  | 'apollo-executor'
  | 'apollo-planner'
  | 'static-header'
  | 'guid-headers'
  | 'jwt-client-awareness'
  | 'rate-limit'
  | 'rate-limit+api-key'
  | 'rate-limit+api-key+jwt'
  | 'rate-limit-redis'
  | 'metrics'
  | 'tracing-1%'
  | 'tracing-100%'
  | 'full+metrics'
  | 'dedup'
  | 'no-dedup'
  | 'subgraph-dedup'
  | 'inbound-dedup'
  | 'compression'
  | 'entity-cache-off'
  | 'entity-cache-memory'
  | 'entity-cache-redis'
  | 'response-cache'
  | 'shedding-off'
  | 'shedding-on';

export type Setups = Readonly<Record<SetupKey, Setup>>;
