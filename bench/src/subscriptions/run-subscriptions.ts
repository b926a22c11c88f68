import { describeEnvironment, loadAverageNote } from '../measure/environment.js';
import { pinProcess } from '../measure/pinning.js';
import { resolveLayout } from '../run/layout.js';
import { runIdOf } from '../run/run.js';
import { startTarget } from '../targets/start-target.js';
import { startSubgraphs } from '../targets/subgraph-processes.js';
import { resolveTargets, type TargetSpec } from '../targets/targets.js';
import { SUBSCRIPTION_DOCUMENT } from './event-source.js';
import { eventsFor, type SubscriptionOptions } from './options.js';
import type { SubscriptionResults, SubscriptionRow } from './results.js';
import { measureRow } from './run-row.js';
import {
  NEST_FASTIFY_MULTIPART,
  NEST_FASTIFY_OWN_SOCKETS,
  NEST_FASTIFY_SUBGRAPH_DEDUP,
  NOT_MEASURED,
  subscriptionSetup,
  subscriptionTarget,
} from './target-setup.js';

export const METHOD =
  'Each of N clients opens its own WebSocket to the gateway (graphql-ws, graphql-transport-ws) and holds one ' +
  `subscription (on the ${NEST_FASTIFY_MULTIPART} row, its own multipart HTTP request and response instead, ` +
  "Apollo's protocol, as Apollo Client's HttpLink subscribes). Events are published by addReview mutations " +
  'sent straight to the reviews subgraph (the event ' +
  'source), so the gateway does only the fan-out: the upstream subscription (ours share one per identical ' +
  'subscription unless SUBSCRIPTION_DEDUPLICATE=false), and per delivery the entity fetches for author (users) ' +
  'and product (products). Closed loop: a few events in flight; ' +
  'an event is done when all N clients have it, then its sender publishes the next. Latency runs from the ' +
  "moment the mutation's HTTP answer arrives to the moment the event arrives at a client, over every delivery; " +
  'events/s is events ÷ the time from the first mutation to the last delivery. CPU is /proc utime+stime of ' +
  'the gateway process over that window.';

/** Every target × every N, with the subgraphs started once; `log` gets progress lines. */
export async function runSubscriptions(
  options: SubscriptionOptions,
  command: string,
  log: (line: string) => void = (line) => console.log(line),
): Promise<SubscriptionResults> {
  const startedAt = new Date();
  const { layout, cores, note } = resolveLayout({ pin: options.pin, cpus: {} });
  if (layout) pinProcess(process.pid, layout.load);
  log(note);
  const rows: SubscriptionRow[] = [];
  const subgraphs = await startSubgraphs(options.basePort + 1, layout?.subgraphs);
  try {
    for (const name of options.targets) await measureTarget(name, { options, subgraphs, layout, rows, log });
  } finally {
    await subgraphs.stop();
  }
  return {
    kind: 'subscriptions',
    runId: `${runIdOf(startedAt)}-subscriptions`,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command,
    environment: describeEnvironment({ cores, router: null, pinning: layout, notes: subscriptionNotes(note) }),
    document: SUBSCRIPTION_DOCUMENT,
    method: METHOD,
    inFlight: options.inFlight,
    rows,
  };
}

interface TargetRun {
  readonly options: SubscriptionOptions;
  readonly subgraphs: Awaited<ReturnType<typeof startSubgraphs>>;
  readonly layout: ReturnType<typeof resolveLayout>['layout'];
  /** Where each measured (or not measured) row goes. */
  readonly rows: SubscriptionRow[];
  readonly log: (line: string) => void;
}

/** One target: started, measured at each number of subscribers, stopped (or a row saying why it is not measured). */
async function measureTarget(name: string, run: TargetRun): Promise<void> {
  const { options, subgraphs, layout, rows, log } = run;
  const measured = subscriptionTarget(name);
  const [target] = resolveTargets([measured.base], []) as [TargetSpec];
  const setup = subscriptionSetup(Math.max(...options.subscribers), measured);
  const skip = NOT_MEASURED[target.name];
  if (skip) {
    log(`${target.name}: ${skip}`);
    rows.push({ target: target.name, subscribers: null, status: 'not-measured', message: skip });
    return;
  }
  log(`${name}: starting`);
  const running = await startTarget(target, setup, {
    port: options.basePort,
    subgraphUrls: subgraphs.urls,
    cpus: layout?.gateway,
    nodeFlags: [],
    router: null,
    setupContext: {},
  });
  try {
    for (const subscribers of options.subscribers) {
      const plan = {
        subscribers,
        events: eventsFor(options, subscribers),
        inFlight: options.inFlight,
        warmupEvents: options.warmupEvents,
      };
      log(`${name} · ${subscribers} subscribers · ${plan.events} events, ${plan.inFlight} in flight`);
      const row = await measureRow(
        {
          target: name,
          url: running.url,
          transport: measured.transport,
          reviewsUrl: subgraphs.urls.reviews,
          gatewayPid: running.process?.pid as number,
          subgraphPids: subgraphs.processes.map((p) => p.pid),
        },
        plan,
        log,
      );
      log(`  ${rowLine(row)}`);
      rows.push(row);
    }
  } finally {
    await running.stop();
  }
}

function subscriptionNotes(note: string): string[] {
  return [
    note,
    loadAverageNote(),
    'Our gateway ran with SUBSCRIPTION_MAX_PER_CLIENT raised to the largest N: every client here is one ' +
      'loopback address, which the default cap (100 per client) would refuse past the 100th subscription.',
    `${NEST_FASTIFY_SUBGRAPH_DEDUP} is nest-fastify with SUBGRAPH_DEDUPLICATE=true: identical subgraph requests in ` +
      'flight share one (Hive Gateway does this by default); ' +
      `${NEST_FASTIFY_OWN_SOCKETS} is nest-fastify with SUBSCRIPTION_DEDUPLICATE=false: a subgraph socket per client ` +
      `subscription; ${NEST_FASTIFY_MULTIPART} is nest-fastify with its clients on multipart HTTP; ` +
      'the other rows of ours run with the defaults.',
    'Hive Gateway ran with the reviews subgraph\'s subscriptions over WebSocket (transportEntries: subscriptions: { kind: "ws" }).',
  ];
}

function rowLine(row: SubscriptionRow): string {
  if (row.status !== 'ok') return `${row.status}: ${row.message ?? ''}`;
  return (
    `${row.eventsPerSec} events/s, ${row.deliveriesPerSec} deliveries/s, p50 ${row.latencyMs?.p50} ms, ` +
    `p99 ${row.latencyMs?.p99} ms, gateway ${row.gatewayCpuMsPerEvent} CPU-ms/event (${row.gatewayCpuShare} core), ` +
    `subgraphs ${row.subgraphCpuShare} core, clients ${row.clientCpuShare} core`
  );
}
