import type { BenchEnvironment, LatencySummary } from '../run/results.js';

/** The shape of a soak run's `results.json` (`kind: 'soak'` tells it from a `pnpm bench` run). */
export interface SoakResults {
  readonly kind: 'soak';
  readonly runId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly command: string;
  readonly environment: BenchEnvironment;
  /** The mount soaked (nest-fastify). */
  readonly target: string;
  /** What the target ran: plugins and settings, in words. */
  readonly stack: string;
  /** The queries, sent in equal shares (§A's mix), each request for a random user. */
  readonly queries: readonly string[];
  /** How the rate was chosen: measured maximum (closed loop) × share, or given with --rate. */
  readonly maxRate: { readonly rps: number; readonly source: 'measured' | 'given'; readonly seconds?: number };
  /** Requests per second sent open loop. */
  readonly rate: number;
  readonly durationSec: number;
  readonly intervalSec: number;
  readonly timeoutMs: number;
  readonly intervals: readonly SoakInterval[];
  readonly totals: SoakTotals;
  readonly verdict: SoakVerdict;
}

/** One interval of the soak: what was sent in it (by intended start), and the readings at its end. */
export interface SoakInterval {
  /** Seconds from the start of the soak to the end of this interval. */
  readonly atSec: number;
  readonly sent: number;
  /** Answered 2xx without GraphQL errors. */
  readonly completed: number;
  readonly failed: number;
  /** Sent more than 1 ms after their intended start. */
  readonly late: number;
  /** Over every request sent in the interval, a failed one counted at the timeout; null when none answered. */
  readonly latencyMs: Pick<LatencySummary, 'p50' | 'p99'> | null;
  /** Failures by kind: `HTTP 503`, `GRAPHQL REQUEST_RATE_LIMITED`, `timeout`… */
  readonly errors: Readonly<Record<string, number>>;
  /** The gateway's resident set (/proc VmRSS) at the interval's end; null when the process is gone. */
  readonly rssMb: number | null;
  /** Gateway CPU during the interval, as a share of one core. */
  readonly cpuShare: number | null;
  /** Event-loop delay over the interval (prom-client's histogram, reset by each scrape), ms. */
  readonly lagP99Ms: number | null;
  readonly lagMeanMs: number | null;
  readonly lagMaxMs: number | null;
  readonly heapUsedMb: number | null;
}

export interface SoakTotals {
  readonly sent: number;
  readonly completed: number;
  readonly failed: number;
  readonly late: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly latencyMs: LatencySummary | null;
}

export interface SoakVerdict {
  /** True when the resident set did not grow beyond the limit, nothing failed, and lag stayed under its limit. */
  readonly pass: boolean;
  /** Mean RSS over the first and the last third of the intervals, and the growth between them. */
  readonly rss: {
    readonly firstThirdMb: number;
    readonly lastThirdMb: number;
    readonly growthPercent: number;
    readonly limitPercent: number;
  } | null;
  readonly failed: number;
  /** The worst interval's event-loop p99 and max, ms. */
  readonly lag: { readonly maxP99Ms: number; readonly maxMs: number; readonly limitP99Ms: number } | null;
  /** Each reason the run did not pass, or what it showed when it did, as sentences. */
  readonly findings: readonly string[];
}
