import type { Samples } from '../measure/samples.js';
import type { SendSchedule } from '../run/results.js';

/** What one measured window of load produced, before CPU and memory are added. */
export interface LoadResult {
  /** The measured window, seconds. */
  readonly durationSec: number;
  /** 2xx responses without GraphQL `errors`: the only ones counted as throughput. */
  readonly ok: number;
  /** Non-2xx, GraphQL errors, timeouts and transport errors. */
  readonly errors: number;
  /** Latency of each successful request, µs; open loop: of every request (see failedAtMs). */
  readonly samples: Samples;
  /** Open loop only: how well the intended schedule was kept. */
  readonly schedule?: SendSchedule;
  /** Open loop only: the latency each failed request was counted at (its timeout), ms. */
  readonly failedAtMs?: number;
  /** Incremental (@defer) rows only: time from send to the whole first part, µs, per successful request. */
  readonly firstPartSamples?: Samples;
}

/** Called about once a second during a measured window: seconds done, answers in the last second. */
export type LiveTick = (secondsDone: number, answersPerSec: number) => void;

/** A send later than this behind schedule counts as late. */
export const LATE_SEND_MS = 1;

/**
 * A GraphQL success: 2xx and no top-level `errors`. A substring test, not a parse: parsing every
 * body would cost the load generator CPU on the core it shares with the subgraphs; our answers'
 * data never contains the key `"errors":`.
 */
export function isGraphQLSuccess(status: number, body: string): boolean {
  return status >= 200 && status < 300 && !body.includes('"errors":');
}
