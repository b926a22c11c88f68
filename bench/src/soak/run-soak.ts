import { freePort } from '@fedgw/test-support';
import { checkAnswers } from '../load/answer-check.js';
import { runClosedLoop } from '../load/closed-loop.js';
import { runOpenLoop } from '../load/open-loop.js';
import { COMPLEX, GET_USER_WITH_PRODUCTS_QUERY, requestBody, sampleUserIds } from '../load/queries.js';
import { describeEnvironment, loadAverageNote } from '../measure/environment.js';
import { pinProcess } from '../measure/pinning.js';
import { summarize } from '../measure/samples.js';
import { resolveLayout } from '../run/layout.js';
import type { RowPlan } from '../run/plan.js';
import { runIdOf } from '../run/run.js';
import { checkLimitInOwnProcess, checkSetup } from '../targets/setup-check.js';
import { createSetups } from '../targets/setups.js';
import { startTarget } from '../targets/start-target.js';
import { startSubgraphs } from '../targets/subgraph-processes.js';
import type { TargetSpec } from '../targets/targets.js';
import { type IntervalReadings, IntervalRecorder } from './intervals.js';
import type { SoakOptions } from './options.js';
import { gatewayReader } from './readings.js';
import type { SoakInterval, SoakResults } from './results.js';
import { soakVerdict, sumErrors } from './verdict.js';

/** §A's two queries, in equal shares. */
export const SOAK_QUERIES = [GET_USER_WITH_PRODUCTS_QUERY, COMPLEX] as const;
const SETUP_KEY = 'full+metrics';
const MAX_RATE_CONNECTIONS = 100;
const TIMEOUT_MS = 10_000;

const STACK =
  'GATEWAY_PLUGINS=full: header rules (a static subgraph header), client awareness, JWT (HS256, every ' +
  'request signed), rate limit (in memory, a limit never reached), ten GUID response headers; plus ' +
  'METRICS_ENABLED=true on its own port (prom-client default metrics)';

/**
 * One soak: the subgraphs and the gateway (full plugin stack, metrics on) as children, answers
 * and setup checked first, the maximum rate measured (or given), then `durationSec` open loop at
 * a share of it, read every `intervalSec`. `log` gets one line per interval.
 */
export async function runSoak(
  options: SoakOptions,
  command: string,
  log: (line: string) => void = (line) => console.log(line),
): Promise<SoakResults> {
  const startedAt = new Date();
  const { layout, cores, note } = resolveLayout({ pin: options.pin, cpus: {} });
  if (layout) pinProcess(process.pid, layout.load);
  const setup = (await createSetups())[SETUP_KEY];
  const target: TargetSpec = { name: options.target, kind: 'mount' };
  let counter = 0;
  const body = () => requestBody(SOAK_QUERIES[counter++ % SOAK_QUERIES.length] ?? GET_USER_WITH_PRODUCTS_QUERY);

  log(`Soak: ${options.target}, ${STACK}.`);
  log(note);
  const subgraphs = await startSubgraphs(options.basePort + 1, layout?.subgraphs);
  try {
    const environment = {
      port: options.basePort,
      subgraphUrls: subgraphs.urls,
      cpus: layout?.gateway,
      nodeFlags: [],
      router: null,
      setupContext: { metricsPort: await freePort() },
    };
    const row = soakRow(options, target, setup);
    const limitProblem = await checkLimitInOwnProcess(row, environment);
    if (limitProblem) throw new Error(`setup check: ${limitProblem}`);
    const running = await startTarget(target, setup, environment);
    try {
      const pid = running.process?.pid as number;
      const metricsPort = environment.setupContext.metricsPort;
      await checkSoakTarget(
        { url: running.url, setup, row, subgraphUrls: Object.values(subgraphs.urls), metricsPort },
        options,
        log,
      );

      const maxRate = await measureMaxRate(options, running.url, body, setup.headers, log);
      const rate = options.rate ?? Math.max(1, Math.round(maxRate.rps * options.rateShare));
      if (options.warmupSec > 0) {
        log(`Warm-up: ${rate} req/s open loop for ${options.warmupSec} s (discarded).`);
        await runOpenLoop({ url: running.url, rate, durationSec: options.warmupSec, body, headers: setup.headers });
      }
      const window = { url: running.url, rate, body, headers: setup.headers, pid, metricsPort };
      const { intervals, load } = await measureIntervals(window, options, log);

      return {
        kind: 'soak',
        runId: `${runIdOf(startedAt)}-soak`,
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        command,
        environment: describeEnvironment({ cores, router: null, pinning: layout, notes: soakNotes(note) }),
        target: options.target,
        stack: STACK,
        queries: SOAK_QUERIES.map((q) => q.name),
        maxRate,
        rate,
        durationSec: options.durationSec,
        intervalSec: options.intervalSec,
        timeoutMs: TIMEOUT_MS,
        intervals,
        totals: totalsOf(intervals, summarize(load.samples)),
        verdict: soakVerdict(intervals),
      };
    } finally {
      await running.stop();
    }
  } finally {
    await subgraphs.stop();
  }
}

/** The soak as a bench row, for the setup checks. */
function soakRow(options: SoakOptions, target: TargetSpec, setup: RowPlan['setup']): RowPlan {
  return {
    target,
    setup,
    variant: SETUP_KEY,
    query: GET_USER_WITH_PRODUCTS_QUERY,
    load: { kind: 'fixed', rate: 1 },
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
  };
}

/** Before any timing: the answers, and the setup (a forged token refused, the header at the subgraphs, metrics). */
async function checkSoakTarget(
  target: {
    url: string;
    setup: RowPlan['setup'];
    row: RowPlan;
    subgraphUrls: readonly string[];
    metricsPort: number;
  },
  options: SoakOptions,
  log: (line: string) => void,
): Promise<void> {
  const { url, setup, row, subgraphUrls, metricsPort } = target;
  const answers = await checkAnswers({
    url,
    queries: SOAK_QUERIES,
    userIds: sampleUserIds(options.answerSamples),
    headers: setup.headers,
    ...(setup.expectHeaders ? { expectHeaders: setup.expectHeaders } : {}),
  });
  if (!answers.ok) throw new Error(`wrong answer: ${answers.message}`);
  const check = await checkSetup(url, setup, row.query, subgraphUrls, { metricsPort });
  if (!check.ok) throw new Error(`setup check: ${check.message}`);
  log(
    `Answers (${answers.checked}) and setup checked: JWT refuses a forged token, the header reaches the subgraphs, metrics answer.`,
  );
}

/** The measured window: `durationSec` open loop at `rate`, the gateway read at the end of every interval. */
async function measureIntervals(
  window: {
    url: string;
    rate: number;
    body: () => string;
    headers: Readonly<Record<string, string>>;
    pid: number;
    metricsPort: number;
  },
  options: SoakOptions,
  log: (line: string) => void,
) {
  const { url, rate, body, headers, pid, metricsPort } = window;
  const count = Math.max(1, Math.ceil(options.durationSec / options.intervalSec));
  const recorder = new IntervalRecorder(options.intervalSec, count);
  const read = gatewayReader(pid, metricsPort);
  const readings: (IntervalReadings | undefined)[] = [];
  let reading = Promise.resolve();
  const takeReading = () => {
    reading = reading.then(async () => {
      if (readings.length >= count) return;
      readings.push(await read());
      log(progressLine(readings.length, options.intervalSec, count, readings.at(-1), recorder.soFar()));
    });
  };
  log(`Soak: ${rate} req/s open loop for ${options.durationSec} s, read every ${options.intervalSec} s.`);
  await read(); // resets the lag histogram and the CPU baseline: the first interval starts now
  const timer = setInterval(takeReading, options.intervalSec * 1000);
  const load = await runOpenLoop({
    url,
    rate,
    durationSec: options.durationSec,
    body,
    headers,
    timeoutMs: TIMEOUT_MS,
    onSend: recorder.onSend,
    onAnswer: recorder.onAnswer,
  }).finally(() => clearInterval(timer));
  // The last interval's reading, if the timer has not taken it yet.
  takeReading();
  await reading;
  return { intervals: recorder.intervals(options.intervalSec, readings), load };
}

function soakNotes(note: string): string[] {
  return [
    note,
    loadAverageNote(),
    'Each interval holds the requests whose intended start fell in it (open loop, latency from the intended ' +
      `start, a failed request counted at its ${TIMEOUT_MS / 1000} s timeout); RSS is /proc VmRSS at the ` +
      "interval's end; lag and heap are prom-client's, scraped then (the lag histogram resets at each scrape).",
  ];
}

async function measureMaxRate(
  options: SoakOptions,
  url: string,
  body: () => string,
  headers: Readonly<Record<string, string>>,
  log: (line: string) => void,
): Promise<SoakResults['maxRate']> {
  if (options.rate !== undefined) return { rps: options.rate, source: 'given' };
  log(`Maximum rate: ${MAX_RATE_CONNECTIONS} closed-loop connections for ${options.maxRateSec} s (after 3 s warm-up).`);
  const common = { url, connections: MAX_RATE_CONNECTIONS, body, headers };
  await runClosedLoop({ ...common, durationSec: 3 });
  const result = await runClosedLoop({ ...common, durationSec: options.maxRateSec });
  if (result.ok === 0) throw new Error(`maximum rate: no successful request (${result.errors} errors)`);
  const rps = Math.round((result.ok / result.durationSec) * 10) / 10;
  log(`Maximum rate: ${rps} req/s (${result.errors} errors).`);
  return { rps, source: 'measured', seconds: options.maxRateSec };
}

function totalsOf(intervals: readonly SoakInterval[], latencyMs: SoakResults['totals']['latencyMs']) {
  const sum = (key: 'sent' | 'completed' | 'failed' | 'late') => intervals.reduce((total, i) => total + i[key], 0);
  return {
    sent: sum('sent'),
    completed: sum('completed'),
    failed: sum('failed'),
    late: sum('late'),
    errors: sumErrors(intervals),
    latencyMs,
  };
}

function progressLine(
  done: number,
  intervalSec: number,
  count: number,
  r: IntervalReadings | undefined,
  so: { sent: number; completed: number; failed: number },
): string {
  const value = (v: number | null | undefined, unit: string) => (v === null || v === undefined ? '—' : `${v} ${unit}`);
  return (
    `  ${Math.round(done * intervalSec)} s (${done}/${count}): sent ${so.sent}, done ${so.completed}, ` +
    `failed ${so.failed}; RSS ${value(r?.rssMb, 'MB')}, ` +
    `lag p99 ${value(r?.lagP99Ms, 'ms')}, heap ${value(r?.heapUsedMb, 'MB')}, CPU ${value(r?.cpuShare, 'core')}`
  );
}
