import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { readCpuSeconds, readPeakRssMb, resetPeakRss } from '../measure/proc-stats.js';
import { DeliveryTracker } from './delivery-tracker.js';
import { publishReview, SUBSCRIPTION_DOCUMENT } from './event-source.js';
import { openMultipartSubscribers } from './multipart-subscribers.js';
import type { SubscriptionRow } from './results.js';
import { openSubscribers, type SubscriberPool } from './subscribers.js';
import type { SubscriptionTransport } from './target-setup.js';

export interface RowContext {
  readonly target: string;
  /** The gateway's GraphQL endpoint (http://…/graphql); graphql-ws clients use it as ws://. */
  readonly url: string;
  /** How the clients subscribe. */
  readonly transport: SubscriptionTransport;
  /** The reviews subgraph's HTTP endpoint: mutations go there. */
  readonly reviewsUrl: string;
  readonly gatewayPid: number;
  readonly subgraphPids: readonly number[];
}

export interface RowPlan {
  readonly subscribers: number;
  readonly events: number;
  readonly inFlight: number;
  readonly warmupEvents: number;
}

/** Until every subscriber has had an event, one probe mutation per interval. */
const PROBE_INTERVAL_MS = 200;
const ESTABLISH_TIMEOUT_MS = 60_000;
/** An event not delivered to every subscriber by then stops the row: its subscriptions are gone or stuck. */
const EVENT_TIMEOUT_MS = 30_000;

/**
 * One row: N subscribers on the gateway, every subscription seen delivering (probe events),
 * a warm-up, then `events` mutations, `inFlight` at a time, each waited for until all N have
 * it. Gateway and subgraph CPU are read around the timed part only.
 */
export async function measureRow(
  context: RowContext,
  plan: RowPlan,
  log: (line: string) => void,
): Promise<SubscriptionRow> {
  const { target } = context;
  const { subscribers } = plan;
  const started = performance.now();
  let pool: SubscriberPool;
  try {
    pool =
      context.transport === 'multipart'
        ? await openMultipartSubscribers(context.url, subscribers, SUBSCRIPTION_DOCUMENT)
        : await openSubscribers(context.url.replace(/^http/, 'ws'), subscribers, SUBSCRIPTION_DOCUMENT);
  } catch (error) {
    return { target, subscribers, status: 'failed', message: (error as Error).message };
  }
  try {
    const establishProblem = await establish(pool, context.reviewsUrl);
    if (establishProblem)
      return { target, subscribers, status: 'failed', message: establishProblem, problems: pool.problems() };
    const setupSec = (performance.now() - started) / 1000;
    log(`  ${subscribers} subscribers live after ${setupSec.toFixed(1)} s; warm-up: ${plan.warmupEvents} events`);
    if (plan.warmupEvents > 0) {
      const warmup = new DeliveryTracker(subscribers);
      pool.setSink((_, id, at) => warmup.arrived(id, at));
      await publishAll(context.reviewsUrl, plan.warmupEvents, plan.inFlight, warmup);
    }

    const tracker = new DeliveryTracker(subscribers);
    pool.setSink((_, id, at) => tracker.arrived(id, at));
    resetPeakRss(context.gatewayPid);
    const wrongBefore = pool.wrongEvents;
    const cpu = cpuReader(context);
    const t0 = performance.now();
    const timedOut = await publishAll(context.reviewsUrl, plan.events, plan.inFlight, tracker);
    const durationSec = (performance.now() - t0) / 1000;
    const used = cpu();
    const summary = tracker.summary();
    const problems = pool.problems();
    const perEvent = (seconds: number) => (seconds * 1000) / Math.max(1, summary.events);
    const row: SubscriptionRow = {
      target,
      subscribers,
      status: timedOut || summary.missing > 0 ? 'failed' : 'ok',
      ...(timedOut
        ? {
            message: `an event did not reach every subscriber within ${EVENT_TIMEOUT_MS / 1000} s; the row stopped there`,
          }
        : summary.missing > 0
          ? { message: `${summary.missing} deliveries missing` }
          : {}),
      setupSec: round(setupSec, 2),
      events: summary.events,
      expected: summary.expected,
      delivered: summary.delivered,
      missing: summary.missing,
      duplicates: summary.duplicates,
      wrongEvents: pool.wrongEvents - wrongBefore,
      beforeAnswer: summary.beforeAnswer,
      durationSec: round(durationSec, 3),
      eventsPerSec: round(summary.events / durationSec, 1),
      deliveriesPerSec: round(summary.delivered / durationSec, 0),
      latencyMs: summary.latencyMs,
      gatewayCpuSec: round(used.gateway, 3),
      gatewayCpuMsPerEvent: round(perEvent(used.gateway), 3),
      gatewayCpuUsPerDelivery: round((used.gateway * 1e6) / Math.max(1, summary.delivered), 1),
      gatewayCpuShare: round(used.gateway / durationSec, 3),
      subgraphCpuMsPerEvent: round(perEvent(used.subgraphs), 3),
      subgraphCpuShare: round(used.subgraphs / durationSec, 3),
      clientCpuShare: round(used.client / durationSec, 3),
      peakRssMb: rounded(readPeakRssMb(context.gatewayPid), 1),
      ...(Object.keys(problems).length > 0 ? { problems } : {}),
    };
    return row;
  } finally {
    await pool.close();
  }
}

/** Probes until every subscriber has had an event; a message saying what is missing when not. */
async function establish(pool: SubscriberPool, reviewsUrl: string): Promise<string | undefined> {
  const deadline = performance.now() + ESTABLISH_TIMEOUT_MS;
  let probes = 0;
  while (pool.live < pool.size) {
    const problems = pool.problems();
    if (Object.keys(problems).length > 0) {
      return `${pool.live} of ${pool.size} subscriptions delivered; the clients saw ${JSON.stringify(problems)}`;
    }
    if (performance.now() > deadline) {
      return `${pool.live} of ${pool.size} subscriptions delivered an event within ${ESTABLISH_TIMEOUT_MS / 1000} s (${probes} probe events)`;
    }
    await publishReview(reviewsUrl, `probe ${probes++}`);
    await sleep(PROBE_INTERVAL_MS);
  }
  return undefined;
}

/**
 * Sends `count` events, `inFlight` at a time; each sender waits until every subscriber has its
 * event before the next. Resolves true when an event timed out (sending stops there).
 */
async function publishAll(
  reviewsUrl: string,
  count: number,
  inFlight: number,
  tracker: DeliveryTracker,
): Promise<boolean> {
  let next = 0;
  let timedOut = false;
  const sender = async () => {
    while (next < count && !timedOut) {
      const n = next++;
      const id = await publishReview(reviewsUrl, `bench event ${n}`);
      tracker.answered(id, performance.now());
      if (!(await tracker.complete(id, EVENT_TIMEOUT_MS))) timedOut = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, sender));
  return timedOut;
}

/** CPU seconds used since the call by the gateway, the subgraphs and this process, when `read()` is called. */
function cpuReader(context: RowContext): () => { gateway: number; subgraphs: number; client: number } {
  const subgraphs = () => context.subgraphPids.reduce((sum, pid) => sum + (readCpuSeconds(pid) ?? 0), 0);
  const client = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const gateway0 = readCpuSeconds(context.gatewayPid) ?? Number.NaN;
  const subgraphs0 = subgraphs();
  const client0 = client();
  return () => ({
    gateway: (readCpuSeconds(context.gatewayPid) ?? Number.NaN) - gateway0,
    subgraphs: subgraphs() - subgraphs0,
    client: client() - client0,
  });
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function rounded(value: number | null, digits: number): number | null {
  return value === null ? null : round(value, digits);
}
