import type { GcSummary } from '../measure/gc-trace.js';

/**
 * The shape of `bench/results/<run>/results.json`: what the harness measures and the
 * report renders. Latencies are in milliseconds with microsecond precision (floats).
 */
export interface BenchResults {
  readonly runId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** `quick` (bench:fastify / bench:express / bench:router) or `full` (bench). */
  readonly mode: 'quick' | 'full';
  readonly command: string;
  readonly environment: BenchEnvironment;
  readonly scenarios: readonly ScenarioResult[];
}

export interface BenchEnvironment {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  /** Package name → installed version (@apollo/gateway, @apollo/server, fastify, express, @nestjs/core, undici, autocannon...). */
  readonly packages: Readonly<Record<string, string>>;
  /** null when no Router binary was found. */
  readonly router: { readonly version: string; readonly path: string } | null;
  /** Which CPUs each process group was pinned to with taskset; null when taskset is missing. */
  readonly pinning: Readonly<Record<'gateway' | 'subgraphs' | 'load', string>> | null;
  readonly notes: readonly string[];
}

export type ScenarioId = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H';

export interface ScenarioResult {
  readonly id: ScenarioId;
  readonly title: string;
  /** What it measures and how (load shape, duration, connections or rate). */
  readonly description: string;
  /** `closed-loop` (autocannon, max throughput) or `fixed-rate` (open loop, µs latencies). */
  readonly kind: 'closed-loop' | 'fixed-rate';
  readonly rows: readonly RowResult[];
}

export type RowStatus = 'ok' | 'wrong-answer' | 'failed' | 'not-installed' | 'skipped';

export interface RowResult {
  /** nest-fastify | nest-express | fastify | express | standalone | apollo-router | <external name> */
  readonly target: string;
  /** What varies inside the scenario: the query, the plugin profile, the connection count, the rate... */
  readonly variant: string;
  readonly status: RowStatus;
  /** Why the row has no numbers (wrong answer, crash, "not installed — run pnpm router:install"). */
  readonly message?: string;
  readonly connections?: number;
  /** Target arrival rate, requests per second (fixed-rate rows). */
  readonly rate?: number;
  readonly durationSec?: number;
  /** Successful requests: 2xx and no GraphQL `errors`. */
  readonly requests?: number;
  /** Non-2xx responses, GraphQL errors and transport errors; never counted as throughput. */
  readonly errors?: number;
  readonly rps?: number;
  /**
   * Closed loop: successful requests only. Fixed rate: every request, a failed or timed-out
   * one counted at `failedAtMs` (its timeout), so under overload the tail grows, never shrinks.
   */
  readonly latencyMs?: LatencySummary;
  /** Incremental (@defer) rows: from send to the whole first part, successful requests (latencyMs: to the last part). */
  readonly firstPartMs?: LatencySummary;
  /** Fixed-rate rows: the latency a failed request is counted at (the per-request timeout), ms. */
  readonly failedAtMs?: number;
  /** CPU used per process group during the measured window. */
  readonly cpu?: Readonly<Record<string, CpuUsage>>;
  /** Gateway (or Router) CPU-seconds per 1,000 successful requests. */
  readonly gatewayCpuSecPer1k?: number;
  /**
   * The target's peak resident set during this row's measured window: its VmHWM is reset
   * (`/proc/<pid>/clear_refs`) when the window starts and read when it ends. `peakRssScope`
   * says `process` when the reset was refused (then it is the process's lifetime peak).
   */
  readonly gatewayPeakRssMb?: number;
  readonly peakRssScope?: 'row' | 'process';
  /**
   * Our Node mounts: the row's garbage collections, read from the gateway's `--trace-gc-nvp`
   * lines during the measured window (measure/gc-trace.ts): KB allocated and promoted to the
   * old generation per successful request, and the full collections (mark-compact) with their
   * main-thread pause. Far steadier than latency on a noisy machine: a regression shows here first.
   */
  readonly gc?: GcSummary;
  /**
   * Every process group, and every CPU set several groups share (`subgraphs+load`), that used
   * ≥ 90% of what it may use, busiest first. Empty: nothing saturated.
   */
  readonly saturated?: readonly string[];
  /**
   * Why this row may not measure the target alone: a saturated group other than the target
   * (load generator, subgraphs, their shared core), more than 1% of sends late, errors.
   * Every report shows them beside the row.
   */
  readonly warnings?: readonly string[];
  /**
   * §G: requests the subgraphs received during the measured window per successful client
   * request (counted by the subgraphs themselves), in all and per subgraph: what a cache saves.
   */
  readonly subgraphRequestsPerRequest?: number;
  readonly subgraphRequestsBySubgraph?: Readonly<Record<string, number>>;
  /** §C: latency minus the baseline row's, same target. */
  readonly deltaVsBaselineMs?: { readonly p50: number; readonly p99: number };
  /** §D: throughput as a percentage of the same target's `none` row. */
  readonly keptPercent?: number;
  /** Fixed-rate rows: how well the open-loop generator kept its schedule. */
  readonly schedule?: SendSchedule;
  /** §H: the competing stream sent beside the row's during its warm-up and measured window. */
  readonly competing?: CompetingStream;
}

/** A second client's open-loop stream (§H's batch overload), counted over its whole run. */
export interface CompetingStream {
  readonly label: string;
  /** Its intended arrival rate, req/s. */
  readonly rate: number;
  readonly durationSec: number;
  /** Successful answers (2xx, no GraphQL errors). */
  readonly ok: number;
  /** Refusals (503 when shed), other errors and timeouts. */
  readonly errors: number;
  /** Successful answers per second. */
  readonly okRps: number;
}

/** Late sends still count their latency from the intended start (no coordinated omission). */
export interface SendSchedule {
  /** Requests the schedule called for (rate × duration). */
  readonly intended: number;
  readonly sent: number;
  /** Sent more than 1 ms after their intended start. */
  readonly late: number;
  /** The worst send lag, ms. */
  readonly maxLagMs: number;
}

export interface LatencySummary {
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
  /** p99.9: absent in runs committed before it was recorded. */
  readonly p999?: number;
  readonly max: number;
}

export interface CpuUsage {
  readonly cpuSeconds: number;
  /** cpuSeconds / (wall seconds × CPUs the group may use): 1.0 means saturated. */
  readonly share: number;
}
