import { loadavg } from 'node:os';
import { findRedisServer, freePort } from '@fedgw/test-support';
import { sampleUserIds } from '../load/queries.js';
import type { ProcessGroup } from '../measure/cpu-groups.js';
import { describeEnvironment } from '../measure/environment.js';
import { parseCpuList, pinProcess } from '../measure/pinning.js';
import { type RunningSink, startSinkProcess } from '../observe/sink-process.js';
import { planScenarios } from '../scenarios/index.js';
import { type RunningRedis, startRedis } from '../targets/redis-process.js';
import { findRouterBinary } from '../targets/router-binary.js';
import { createSetups } from '../targets/setups.js';
import type { RunningTarget } from '../targets/start-target.js';
import { type RunningSubgraphs, startSubgraphs } from '../targets/subgraph-processes.js';
import { resolveLayout } from './layout.js';
import type { BenchOptions } from './options.js';
import { estimateSeconds, type PlanContext, type RowPlan } from './plan.js';
import { formatDuration, Progress } from './progress.js';
import type { BenchResults, ScenarioResult } from './results.js';
import { type RunContext, runScenario } from './run-scenario.js';

/** Runs the planned scenarios end to end and returns the results (the caller writes the report). */
export async function runBench(options: BenchOptions, command: string): Promise<BenchResults> {
  const startedAt = new Date();
  const { layout, cores, note } = resolveLayout(options);
  // The load generator is this process: pin it (all its threads) like the children.
  if (layout) pinProcess(process.pid, layout.load);
  const router = await findRouterBinary();
  const plans = planScenarios(options.scenarios, await planContextOf(options, router));
  const progress = announcePlans(options, plans, router, note);

  const needsSubgraphs = plans.some((plan) => plan.rows.some((row) => !row.skip && row.target.kind !== 'external'));
  const helpers: Helpers = { subgraphs: null, redis: null, sink: null };
  const runContext = runContextOf({ options, layout, cores, router, helpers, progress });

  const scenarios: ScenarioResult[] = [];
  try {
    if (needsSubgraphs) helpers.subgraphs = await startSubgraphs(options.basePort + 1, layout?.subgraphs);
    for (const plan of plans) scenarios.push(await runScenario(plan, runContext));
  } finally {
    await helpers.redis?.process.stop();
    await helpers.sink?.process.stop();
    await helpers.subgraphs?.stop();
  }

  const notes = environmentNotes(options, note, router);
  return {
    runId: runIdOf(startedAt),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    mode: options.mode,
    command,
    environment: describeEnvironment({ cores, router, pinning: layout, notes }),
    scenarios,
  };
}

type Layout = ReturnType<typeof resolveLayout>['layout'];
type Router = Awaited<ReturnType<typeof findRouterBinary>>;
type Plans = ReturnType<typeof planScenarios>;

/** The helper processes a run starts as its rows need them, stopped when it ends. */
interface Helpers {
  subgraphs: RunningSubgraphs | null;
  redis: RunningRedis | null;
  sink: RunningSink | null;
}

/** What the scenarios are planned with: the targets, the setups, the durations, rates and connections. */
async function planContextOf(options: BenchOptions, router: Router): Promise<PlanContext> {
  const quick = options.mode === 'quick';
  return {
    targets: options.targets,
    setups: await createSetups(),
    router,
    redisAvailable:
      (options.scenarios.includes('E') || options.scenarios.includes('G')) && findRedisServer() !== undefined,
    closedSec: options.durationSec ?? (quick ? 10 : 30),
    fixedSec: options.durationSec ?? (quick ? 10 : 60),
    warmupSec: options.warmupSec ?? (quick ? 3 : 5),
    connections: options.connections ?? 100,
    adapterConnections: [50, 200, 500],
    constantRate: options.rates?.[0] ?? 100,
    rates: options.rates ?? [100, 300, 500],
  };
}

/** The run's progress, opened with what will run and about how long it takes. */
function announcePlans(options: BenchOptions, plans: Plans, router: Router, note: string): Progress {
  const { targets } = options;
  const rowCount = plans.reduce((sum, plan) => sum + Math.max(1, plan.rows.length), 0);
  const estimate = estimateSeconds(plans);
  const progress = new Progress(rowCount, estimate);
  progress.info(
    `Benchmark (${options.mode}): §${options.scenarios.join(', §')}, ${rowCount} rows on ` +
      `${targets.map((t) => t.name).join(', ')}; about ${formatDuration(estimate)}.`,
  );
  progress.info(note);
  if (!router && targets.some((t) => t.kind === 'router')) {
    progress.info('Apollo Router: not installed — run pnpm router:install (its rows are marked, not measured).');
  }
  return progress;
}

interface RunParts {
  readonly options: BenchOptions;
  readonly layout: Layout;
  readonly cores: number;
  readonly router: Router;
  readonly helpers: Helpers;
  readonly progress: Progress;
}

/** What each row runs with: its target's environment (starting Redis or the sink when it needs them) and the measured groups. */
function runContextOf(parts: RunParts): RunContext {
  const { options, layout, cores, router, helpers, progress } = parts;
  const cpusIn = (list: string) => parseCpuList(list).length;
  const capacity = (list: string | undefined, parallelism: number) =>
    Math.min(list === undefined ? cores : cpusIn(list), parallelism);
  return {
    targetEnvironment: async (row: RowPlan) => {
      if (row.setup.needsRedis && !helpers.redis)
        helpers.redis = await startRedis(findRedisServer() as string, layout?.subgraphs);
      // The sink is a helper like Redis: on the subgraphs' CPUs, its CPU its own group.
      if (row.setup.traceCheck && !helpers.sink) helpers.sink = await startSinkProcess(layout?.subgraphs);
      // External targets bring their own subgraphs.
      const subgraphUrls = helpers.subgraphs?.urls ?? NO_SUBGRAPHS;
      const running = { redis: helpers.redis, sink: helpers.sink };
      return {
        port: options.basePort,
        subgraphUrls,
        cpus: layout?.gateway,
        nodeFlags: options.nodeFlags,
        router,
        setupContext: {
          ...(running.redis ? { redisUrl: running.redis.url } : {}),
          ...(running.sink ? { otlpEndpoint: running.sink.endpoint } : {}),
          ...(row.setup.metrics ? { metricsPort: await freePort() } : {}),
        },
      };
    },
    sinkCounts: () => {
      const running = helpers.sink;
      if (!running) throw new Error('no OTLP sink is running');
      return running.counts();
    },
    targetGroup: (target: RunningTarget): ProcessGroup | null => {
      if (!target.process || !target.group) return null;
      const pids = target.pids();
      return {
        name: target.group,
        pids,
        cpuList: layout?.gateway,
        // Node runs JavaScript on one thread; the Router and a cluster use every core they are given.
        capacity: capacity(
          layout?.gateway,
          target.group === 'router' || pids.length > 1 ? Number.POSITIVE_INFINITY : 1,
        ),
      };
    },
    otherGroups: () => otherGroupsOf(helpers, layout, capacity),
    cpusIn,
    userIds: sampleUserIds(options.answerSamples),
    progress,
  };
}

/** The groups measured besides the target: the subgraphs, the load generator, Redis and the sink when running. */
function otherGroupsOf(
  helpers: Helpers,
  layout: Layout,
  capacity: (list: string | undefined, parallelism: number) => number,
): ProcessGroup[] {
  const { subgraphs, redis, sink } = helpers;
  return [
    ...(subgraphs
      ? [
          {
            name: 'subgraphs',
            pids: subgraphs.processes.map((p) => p.pid),
            cpuList: layout?.subgraphs,
            capacity: capacity(layout?.subgraphs, 3),
          },
        ]
      : []),
    { name: 'load', pids: [process.pid], cpuList: layout?.load, capacity: capacity(layout?.load, 1) },
    ...(redis
      ? [
          {
            name: 'redis',
            pids: [redis.process.pid],
            cpuList: layout?.subgraphs,
            capacity: capacity(layout?.subgraphs, 1),
          },
        ]
      : []),
    ...(sink
      ? [
          {
            name: 'otlp-sink',
            pids: [sink.process.pid],
            cpuList: layout?.subgraphs,
            capacity: capacity(layout?.subgraphs, 1),
          },
        ]
      : []),
  ];
}

/** What the report says about the run's conditions: pinning, Node flags, load, how it measures. */
function environmentNotes(options: BenchOptions, note: string, router: Router): string[] {
  const load = loadavg().map((value) => value.toFixed(2));
  return [
    note,
    ...(options.nodeFlags.length > 0
      ? [`Our gateway mounts ran with Node flags: ${options.nodeFlags.join(' ')}.`]
      : []),
    `Load average at the end: ${load.join(' / ')} (1 / 5 / 15 min): other work on the machine adds noise.`,
    'Throughput counts only 2xx answers without GraphQL errors; every target is checked against reference answers first.',
    'Latencies are exact percentiles at µs resolution: closed loop over every successful request, from each ' +
      "response's own timing; fixed rate over every request from its intended start (open loop, no coordinated " +
      'omission), a failed one counted at its timeout.',
    "Peak RSS is each row's own: the target's VmHWM is reset (/proc/<pid>/clear_refs) when the measured window starts.",
    'A row is warned about (⚠) when anything besides its target saturated its CPU, more than 1% of its sends were ' +
      'late, or requests failed.',
    ...(router ? [] : ['Apollo Router not installed: its rows say so (pnpm router:install).']),
  ];
}

const NO_SUBGRAPHS = { users: '', products: '', reviews: '' } as const;

/** `2026-05-01T12-30-00Z`: sortable and safe as a directory name. */
export function runIdOf(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
}
