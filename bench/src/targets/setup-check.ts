import { setTimeout as sleep } from 'node:timers/promises';
import type { HeaderCounts } from '@fedgw/subgraphs';
import { request } from 'undici';
import { postJson } from '../load/http-post.js';
import { type BenchQuery, requestBody } from '../load/queries.js';
import type { SinkCounts } from '../observe/otlp-sink.js';
import type { RowPlan } from '../run/plan.js';
import { METRICS_PATH, type Refusal, type Setup } from './setups.js';
import { startTarget, type TargetEnvironment } from './start-target.js';

export type SetupCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

const OK: SetupCheck = { ok: true };

/** Where a setup's metrics and traces can be seen: the target's metrics port, the OTLP sink's counts. */
export interface Observers {
  readonly metricsPort?: number;
  readonly sinkCounts?: () => Promise<SinkCounts>;
}

/** The batch span processor exports every 5 s by default: wait a little longer than two rounds. */
const EXPORT_WAIT_MS = 15_000;
/** A metric every prom-client default registry has: its presence proves the endpoint is prom-client's. */
const EXPECTED_METRIC = 'process_cpu_seconds_total';

/**
 * Checks that a setup does what its row claims, beyond a right answer: each refusal is
 * refused with its status, and the header a header rule inserts reaches every subgraph the
 * query touches (counted by the subgraphs: SUBGRAPH_COUNT_HEADER). `subgraphUrls` is empty
 * for an external target, whose subgraphs are not ours to ask: then the header is not checked.
 */
export async function checkSetup(
  url: string,
  setup: Setup,
  query: BenchQuery,
  subgraphUrls: readonly string[],
  observers: Observers = {},
): Promise<SetupCheck> {
  if (setup.metrics) {
    const problem = await checkMetrics(observers.metricsPort);
    if (problem) return { ok: false, message: problem };
  }
  if (setup.traceCheck) {
    const problem = await checkTraces(url, setup, query, setup.traceCheck.requests, observers.sinkCounts);
    if (problem) return { ok: false, message: problem };
  }
  for (const refusal of setup.refusals ?? []) {
    const problem = await checkRefusal(url, query, refusal);
    if (problem) return { ok: false, message: problem };
  }
  if (setup.subgraphHeader && subgraphUrls.length > 0) {
    const { name, value } = setup.subgraphHeader;
    const before = await Promise.all(subgraphUrls.map(headerCounts));
    const response = await postJson(url, requestBody(query), setup.headers);
    if (response.status !== 200) return { ok: false, message: `header check: HTTP ${response.status}` };
    const after = await Promise.all(subgraphUrls.map(headerCounts));
    let reached = 0;
    for (const [i, counts] of after.entries()) {
      const earlier = before[i] as HeaderCounts;
      if (counts.header !== name) return { ok: false, message: `subgraphs count "${counts.header}", not "${name}"` };
      if (counts.missing > earlier.missing) {
        return { ok: false, message: `a subgraph request arrived without the "${name}" header` };
      }
      reached += (counts.counts[value] ?? 0) - (earlier.counts[value] ?? 0);
    }
    if (reached === 0) return { ok: false, message: `no subgraph request carried "${name}: ${value}"` };
  }
  return OK;
}

/**
 * The rate limit at `max`: a request is refused with 429 by the (max + 1)th at the latest, and
 * every one before it was answered. "At the latest": the target's readiness polls count too.
 */
export async function checkLimit(url: string, setup: Setup, query: BenchQuery, max: number): Promise<SetupCheck> {
  for (let i = 1; i <= max + 1; i++) {
    const response = await postJson(url, requestBody(query), setup.headers);
    if (response.status === 429) return OK;
    if (response.status !== 200) {
      return { ok: false, message: `rate limit ${max}: request ${i} answered HTTP ${response.status}` };
    }
  }
  return { ok: false, message: `rate limit ${max}: ${max + 1} requests answered, none refused with 429` };
}

/**
 * The timed rows never reach the rate limit, so it is proven in a process of its own: the same
 * target and setup with the limit lowered, refusing the request past it. Returns the problem.
 */
export async function checkLimitInOwnProcess(
  row: RowPlan,
  environment: TargetEnvironment | null,
): Promise<string | null> {
  const { limitCheck } = row.setup;
  if (!limitCheck || !environment) return null;
  const lowered: Setup = {
    ...row.setup,
    gatewayEnv: (setupContext) => ({ ...row.setup.gatewayEnv(setupContext), RATE_LIMIT_MAX: String(limitCheck.max) }),
  };
  const target = await startTarget(row.target, lowered, environment);
  try {
    const check = await checkLimit(target.url, lowered, row.query, limitCheck.max);
    return check.ok ? null : check.message;
  } finally {
    await target.stop();
  }
}

/** The metrics port answers the metrics path with Prometheus text from prom-client. Returns the problem. */
export async function checkMetrics(port: number | undefined): Promise<string | null> {
  if (port === undefined) return 'metrics: no metrics port was given to the target';
  try {
    const response = await request(`http://127.0.0.1:${port}${METRICS_PATH}`, {
      headersTimeout: 5_000,
      bodyTimeout: 5_000,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return `metrics: GET ${METRICS_PATH} answered HTTP ${response.statusCode}`;
    if (!new RegExp(`^${EXPECTED_METRIC} `, 'm').test(text)) {
      return `metrics: GET ${METRICS_PATH} has no ${EXPECTED_METRIC} sample`;
    }
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `metrics: nothing answers on METRICS_PORT ${port} (${code})`;
  }
}

/**
 * `requests` answered requests make the OTLP sink receive at least one export (the batch
 * processor's own schedule is kept: waiting is cheaper than changing what is measured).
 */
export async function checkTraces(
  url: string,
  setup: Setup,
  query: BenchQuery,
  requests: number,
  sinkCounts: Observers['sinkCounts'],
): Promise<string | null> {
  if (!sinkCounts) return 'tracing: no OTLP sink is running';
  const before = (await sinkCounts()).exports;
  const parallel = 10;
  let sent = 0;
  const worker = async (): Promise<string | null> => {
    while (sent < requests) {
      sent++;
      const response = await postJson(url, requestBody(query), setup.headers);
      if (response.status !== 200) return `tracing check: a request answered HTTP ${response.status}`;
    }
    return null;
  };
  const problems = await Promise.all(Array.from({ length: Math.min(parallel, requests) }, worker));
  const problem = problems.find((p) => p !== null);
  if (problem) return problem;
  const deadline = Date.now() + EXPORT_WAIT_MS;
  while (Date.now() < deadline) {
    if ((await sinkCounts()).exports > before) return null;
    await sleep(250);
  }
  return `tracing: ${requests} requests, and no export reached the OTLP sink within ${EXPORT_WAIT_MS / 1000} s`;
}

async function checkRefusal(url: string, query: BenchQuery, refusal: Refusal): Promise<string | null> {
  const response = await postJson(url, requestBody(query), refusal.headers);
  return response.status === refusal.status
    ? null
    : `a request with ${refusal.what} answered HTTP ${response.status}, expected ${refusal.status}`;
}

/**
 * Every request each subgraph has received so far (its counted header's values plus the
 * requests without it), by subgraph URL: §G reads it around the measured window.
 */
export async function subgraphRequestTotals(
  subgraphUrls: Readonly<Record<string, string>>,
): Promise<Record<string, number>> {
  const entries = await Promise.all(
    Object.entries(subgraphUrls).map(async ([name, url]) => {
      const counts = await headerCounts(url);
      const total = Object.values(counts.counts).reduce((sum, n) => sum + n, counts.missing);
      return [name, total] as const;
    }),
  );
  return Object.fromEntries(entries);
}

async function headerCounts(graphqlUrl: string): Promise<HeaderCounts> {
  const response = await request(new URL('/header-counts', graphqlUrl));
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`${graphqlUrl}: GET /header-counts answered ${response.statusCode}`);
  }
  return (await response.body.json()) as HeaderCounts;
}
