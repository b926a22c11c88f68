import { Pool } from 'undici';
import { Samples } from '../measure/samples.js';
import { isGraphQLSuccess, LATE_SEND_MS, type LiveTick, type LoadResult } from './load-result.js';
import { type ClockOptions, dueAt, startClock } from './schedule-clock.js';

export interface OpenLoopOptions {
  readonly url: string;
  /** Intended arrival rate, requests per second. */
  readonly rate: number;
  readonly durationSec: number;
  readonly body: () => string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Upper bound on sockets; opened only as needed. Default 512, so the target, not the pool, queues. */
  readonly connections?: number;
  /** Per-request timeout. A failed request is an error and counts at this latency. Default 10 s. */
  readonly timeoutMs?: number;
  /** Default 200 µs (see ClockOptions.leadNs). */
  readonly leadUs?: number;
  /** Decides success from status and body. Default: isGraphQLSuccess. */
  readonly isSuccess?: (status: number, body: string) => boolean;
  /** Live progress, once a second. */
  readonly onTick?: LiveTick;
  /** Each send as it leaves: its intended start and how late it left (ns). The soak's per-interval counts. */
  readonly onSend?: (dueNs: bigint, lagNs: bigint) => void;
  /** Each answer, with the latency it was counted at (µs; a failure at the timeout) and why it failed. */
  readonly onAnswer?: (answer: OpenLoopAnswer) => void;
}

export interface OpenLoopAnswer {
  readonly dueNs: bigint;
  readonly latencyUs: number;
  readonly ok: boolean;
  /** Absent when no response arrived (timeout, connection error: see `error`). */
  readonly status?: number;
  /** The body of a failed response (to read its GraphQL error codes); absent on success. */
  readonly body?: string;
  readonly error?: unknown;
}

/**
 * Fixed arrival rate, open loop: request i is launched at start + i/rate whether or not earlier
 * ones were answered, and its latency is measured from that intended start
 * (process.hrtime.bigint(), µs), so a stalled target is charged for the queue it causes (no
 * coordinated omission). Every sample is kept for exact percentiles; late sends are reported.
 * A failed request (error status, GraphQL errors, timeout, transport error) is counted at the
 * timeout: under overload the tail grows with the failures instead of shrinking without them.
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<LoadResult> {
  const run = openRun(options);
  const clock: ClockOptions = {
    // A short head start lets the clock thread boot before send 0 is due.
    startNs: process.hrtime.bigint() + 50_000_000n,
    intervalNs: 1e9 / options.rate,
    count: run.count,
    leadNs: (options.leadUs ?? 200) * 1000,
  };
  const ticker = tickEachSecond(run);
  await sendOnSchedule(run, clock);
  await finish(run, clock);
  clearInterval(ticker);
  await run.pool.close();
  return {
    durationSec: options.durationSec,
    ok: run.ok,
    errors: run.errors,
    samples: run.samples,
    schedule: { intended: run.count, sent: run.sent, late: run.late, maxLagMs: Number(run.maxLagNs) / 1e6 },
    failedAtMs: run.timeoutMs,
  };
}

/** One open-loop run: what it sends, where, and what it has counted so far. */
interface Run {
  readonly options: OpenLoopOptions;
  readonly path: string;
  readonly timeoutMs: number;
  readonly isSuccess: NonNullable<OpenLoopOptions['isSuccess']>;
  readonly headers: Record<string, string>;
  readonly pool: Pool;
  readonly count: number;
  readonly samples: Samples;
  readonly inFlight: Set<Promise<void>>;
  ok: number;
  errors: number;
  sent: number;
  late: number;
  maxLagNs: bigint;
}

function openRun(options: OpenLoopOptions): Run {
  const url = new URL(options.url);
  return {
    options,
    path: `${url.pathname}${url.search}`,
    timeoutMs: options.timeoutMs ?? 10_000,
    isSuccess: options.isSuccess ?? isGraphQLSuccess,
    headers: { 'content-type': 'application/json', ...options.headers },
    pool: new Pool(url.origin, { connections: options.connections ?? 512, pipelining: 1 }),
    count: Math.max(1, Math.round(options.rate * options.durationSec)),
    samples: new Samples(),
    inFlight: new Set<Promise<void>>(),
    ok: 0,
    errors: 0,
    sent: 0,
    late: 0,
    maxLagNs: 0n,
  };
}

/** `onTick` each second with the answers of that second, when asked for. */
function tickEachSecond(run: Run): NodeJS.Timeout | undefined {
  const { onTick } = run.options;
  let secondsDone = 0;
  let answeredBefore = 0;
  return onTick
    ? setInterval(() => {
        const answered = run.ok + run.errors;
        onTick(++secondsDone, answered - answeredBefore);
        answeredBefore = answered;
      }, 1000).unref()
    : undefined;
}

/** Every send at its due time, until the clock has ticked `count` times. */
async function sendOnSchedule(run: Run, clock: ClockOptions): Promise<void> {
  // A tick arrives up to leadNs early: yield to I/O (setImmediate) until the send is due.
  const sendWhenDue = (due: bigint) => {
    if (process.hrtime.bigint() >= due) send(run, due);
    else setImmediate(sendWhenDue, due);
  };
  await new Promise<void>((resolve) => {
    const stop = startClock(
      clock,
      (index) => sendWhenDue(dueAt(clock, index)),
      () => {
        stop();
        resolve();
      },
    );
  });
}

/** The last tick may still be waiting in setImmediate; then wait for every answer. */
async function finish(run: Run, clock: ClockOptions): Promise<void> {
  while (run.sent < run.count && process.hrtime.bigint() < dueAt(clock, run.count) + 1_000_000_000n) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all([...run.inFlight]);
}

/** One request, due at `due`: its lag counted, its answer timed or counted as failed. */
function send(run: Run, due: bigint): void {
  const { options, timeoutMs } = run;
  const lag = process.hrtime.bigint() - due;
  run.sent++;
  if (lag > run.maxLagNs) run.maxLagNs = lag;
  if (lag > BigInt(LATE_SEND_MS * 1e6)) run.late++;
  options.onSend?.(due, lag);
  const request = run.pool
    .request({
      path: run.path,
      method: 'POST',
      headers: run.headers,
      body: options.body(),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
    .then(async (response) => {
      const text = await response.body.text();
      const end = process.hrtime.bigint();
      if (run.isSuccess(response.statusCode, text)) {
        run.ok++;
        const latencyUs = Number(end - due) / 1000;
        run.samples.push(latencyUs);
        options.onAnswer?.({ dueNs: due, latencyUs, ok: true, status: response.statusCode });
      } else fail(run, due, { status: response.statusCode, body: text });
    })
    .catch((error: unknown) => fail(run, due, { error }))
    .finally(() => run.inFlight.delete(request));
  run.inFlight.add(request);
}

/** A failed request counts as an error at the timeout's latency. */
function fail(run: Run, dueNs: bigint, failure: Omit<OpenLoopAnswer, 'dueNs' | 'latencyUs' | 'ok'>): void {
  run.errors++;
  run.samples.push(run.timeoutMs * 1000);
  run.options.onAnswer?.({ dueNs, latencyUs: run.timeoutMs * 1000, ok: false, ...failure });
}
