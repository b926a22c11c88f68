import type { BenchEnvironment, LatencySummary } from '../run/results.js';

/** The shape of a subscription run's `results.json` (`kind: 'subscriptions'`). */
export interface SubscriptionResults {
  readonly kind: 'subscriptions';
  readonly runId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly command: string;
  readonly environment: BenchEnvironment;
  /** The subscription every client holds. */
  readonly document: string;
  /** How events are published and timed, in words. */
  readonly method: string;
  readonly inFlight: number;
  readonly rows: readonly SubscriptionRow[];
}

export type SubscriptionRowStatus = 'ok' | 'failed' | 'not-measured';

export interface SubscriptionRow {
  readonly target: string;
  /** Null on a row that stands for every N (a target not measured at all). */
  readonly subscribers: number | null;
  readonly status: SubscriptionRowStatus;
  /** Why the row has no numbers, or what went wrong. */
  readonly message?: string;
  /** Seconds to open the N sockets (connection_ack each) and see every subscription deliver. */
  readonly setupSec?: number;
  /** Events timed (mutations answered). */
  readonly events?: number;
  readonly expected?: number;
  readonly delivered?: number;
  readonly missing?: number;
  readonly duplicates?: number;
  /** Events without a whole federated review (errors, a null author or product). */
  readonly wrongEvents?: number;
  /** Deliveries that beat the mutation's answer to the client (timed as 0). */
  readonly beforeAnswer?: number;
  /** From the first mutation sent to the last delivery (or an event's timeout). */
  readonly durationSec?: number;
  readonly eventsPerSec?: number;
  readonly deliveriesPerSec?: number;
  /** From the mutation's HTTP answer to the event's arrival at the client, over every delivery. */
  readonly latencyMs?: LatencySummary | null;
  /** Gateway CPU over the timed window: seconds, per event, per delivery, and as a share of one core. */
  readonly gatewayCpuSec?: number;
  readonly gatewayCpuMsPerEvent?: number;
  readonly gatewayCpuUsPerDelivery?: number;
  readonly gatewayCpuShare?: number;
  /** The three subgraphs' CPU per event (the entity fetches every delivery makes land there). */
  readonly subgraphCpuMsPerEvent?: number;
  /**
   * Shares of one core over the timed window used by the subgraphs and by this harness (the N
   * clients and the mutations), which share a core when pinned: near 1 together, that core and
   * not the gateway set the pace.
   */
  readonly subgraphCpuShare?: number;
  readonly clientCpuShare?: number;
  /** Peak resident set of the gateway during the row (VmHWM, reset before it). */
  readonly peakRssMb?: number | null;
  /** Problems the clients saw (errors, refusals, early completions), by message. */
  readonly problems?: Readonly<Record<string, number>>;
}
