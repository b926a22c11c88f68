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
  const url = new URL(options.url);
  const path = `${url.pathname}${url.search}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const isSuccess = options.isSuccess ?? isGraphQLSuccess;
  const headers = { 'content-type': 'application/json', ...options.headers };
  const pool = new Pool(url.origin, { connections: options.connections ?? 512, pipelining: 1 });
  const count = Math.max(1, Math.round(options.rate * options.durationSec));
  const clock: ClockOptions = {
    // A short head start lets the clock thread boot before send 0 is due.
    startNs: process.hrtime.bigint() + 50_000_000n,
    intervalNs: 1e9 / options.rate,
    count,
    leadNs: (options.leadUs ?? 200) * 1000,
  };

  const samples = new Samples();
  let ok = 0;
  let errors = 0;
  let sent = 0;
  let late = 0;
  let maxLagNs = 0n;
  const inFlight = new Set<Promise<void>>();
  const { onSend, onAnswer } = options;
  const fail = (dueNs: bigint, failure: Omit<OpenLoopAnswer, 'dueNs' | 'latencyUs' | 'ok'>) => {
    errors++;
    samples.push(timeoutMs * 1000);
    onAnswer?.({ dueNs, latencyUs: timeoutMs * 1000, ok: false, ...failure });
  };
  let secondsDone = 0;
  let answeredBefore = 0;
  const { onTick } = options;
  const ticker = onTick
    ? setInterval(() => {
        const answered = ok + errors;
        onTick(++secondsDone, answered - answeredBefore);
        answeredBefore = answered;
      }, 1000).unref()
    : undefined;

  const send = (due: bigint) => {
    const lag = process.hrtime.bigint() - due;
    sent++;
    if (lag > maxLagNs) maxLagNs = lag;
    if (lag > BigInt(LATE_SEND_MS * 1e6)) late++;
    onSend?.(due, lag);
    const request = pool
      .request({
        path,
        method: 'POST',
        headers,
        body: options.body(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      })
      .then(async (response) => {
        const text = await response.body.text();
        const end = process.hrtime.bigint();
        if (isSuccess(response.statusCode, text)) {
          ok++;
          const latencyUs = Number(end - due) / 1000;
          samples.push(latencyUs);
          onAnswer?.({ dueNs: due, latencyUs, ok: true, status: response.statusCode });
        } else fail(due, { status: response.statusCode, body: text });
      })
      .catch((error: unknown) => fail(due, { error }))
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };

  // A tick arrives up to leadNs early: yield to I/O (setImmediate) until the send is due.
  const sendWhenDue = (due: bigint) => {
    if (process.hrtime.bigint() >= due) send(due);
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
  // The last tick may still be waiting in setImmediate; then wait for every answer.
  while (sent < count && process.hrtime.bigint() < dueAt(clock, count) + 1_000_000_000n) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all([...inFlight]);
  clearInterval(ticker);
  await pool.close();

  return {
    durationSec: options.durationSec,
    ok,
    errors,
    samples,
    schedule: { intended: count, sent, late, maxLagMs: Number(maxLagNs) / 1e6 },
    failedAtMs: timeoutMs,
  };
}
