import autocannon from 'autocannon';
import { Samples } from '../measure/samples.js';
import { isGraphQLSuccess, type LiveTick, type LoadResult } from './load-result.js';
import type { RequestSpec } from './workload.js';

export interface ClosedLoopOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSec: number;
  /** A fresh body per request (e.g. a random `user-N`). */
  readonly body: () => string;
  /** Instead of `body`: a fresh body and extra headers per request (a workload's, e.g. §G's). */
  readonly request?: () => RequestSpec;
  readonly headers?: Readonly<Record<string, string>>;
  /** Per-request timeout, seconds. Default 10. */
  readonly timeoutSec?: number;
  /** Live progress, once a second. */
  readonly onTick?: LiveTick;
}

/**
 * Maximum throughput with a fixed number of connections, each sending its next request when the
 * previous answer arrived (autocannon). Every body is inspected: non-2xx and GraphQL `errors`
 * are errors, never throughput. Latencies of successful requests are kept whole (µs) rather than
 * read from autocannon's whole-millisecond histogram.
 */
export async function runClosedLoop(options: ClosedLoopOptions): Promise<LoadResult> {
  const samples = new Samples();
  let ok = 0;
  let failed = 0;
  // onResponse (body known) runs just before the 'response' event (latency known), synchronously.
  let lastOk = false;
  const url = new URL(options.url);
  let settle: (error: Error | null, result?: autocannon.Result) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    settle = (error, result) =>
      error || !result ? reject(error ?? new Error('autocannon: no result')) : resolve(result);
  });
  const instance = autocannon(
    {
      url: options.url,
      connections: options.connections,
      duration: options.durationSec,
      timeout: options.timeoutSec ?? 10,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      requests: [
        {
          method: 'POST',
          path: `${url.pathname}${url.search}`,
          setupRequest: (request) => {
            if (!options.request) return { ...request, body: options.body() };
            const next = options.request();
            return { ...request, body: next.body, headers: { ...request.headers, ...next.headers } };
          },
          onResponse: (status, body) => {
            lastOk = isGraphQLSuccess(status, body);
            if (lastOk) ok++;
            else failed++;
          },
        },
      ],
    },
    (error, result) => settle(error ?? null, result),
  );
  // The typings omit the client argument autocannon passes first.
  instance.on('response', ((_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => {
    if (lastOk) samples.push(responseTimeMs * 1000);
  }) as never);
  // autocannon's once-a-second 'tick' serves as the clock; the count is ours (every answer).
  let seconds = 0;
  let answeredBefore = 0;
  instance.on('tick', () => {
    const answered = ok + failed;
    options.onTick?.(++seconds, answered - answeredBefore);
    answeredBefore = answered;
  });
  const result = await done;
  // result.errors: connection errors and timeouts (no response at all).
  return { durationSec: result.duration, ok, errors: failed + result.errors, samples };
}
