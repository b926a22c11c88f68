import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { Samples } from '../measure/samples.js';
import { holdsFirstPart, multipartBoundary } from './incremental-answer.js';
import type { LiveTick, LoadResult } from './load-result.js';

export interface DeferLoopOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSec: number;
  readonly body: () => string;
  /** The Accept header that asks for the incremental answer. */
  readonly accept: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Per-request timeout, seconds. Default 10. */
  readonly timeoutSec?: number;
  readonly onTick?: LiveTick;
}

/**
 * The closed loop of an incremental (@defer) operation: `connections` clients, each sending its
 * next request when the whole previous answer has arrived, as autocannon does for the other
 * rows. autocannon times only whole answers, so this loop reads each body as it streams and
 * times two moments from the send: the first part complete (what a page can render) and the
 * whole answer. Success as for every row: 2xx, a multipart answer, no `"errors":`, a last part.
 */
export async function runDeferLoop(options: DeferLoopOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1 });
  const samples = new Samples();
  const firstPartSamples = new Samples();
  const timeoutMs = (options.timeoutSec ?? 10) * 1000;
  const headers = { 'content-type': 'application/json', accept: options.accept, ...options.headers };
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const endAt = started + options.durationSec * 1000;

  const one = async (): Promise<void> => {
    const sent = performance.now();
    let firstPartAt: number | null = null;
    try {
      const response = await pool.request({
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        body: options.body(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const boundary = multipartBoundary(response.headers['content-type']);
      let text = '';
      for await (const chunk of response.body) {
        text += chunk.toString();
        if (firstPartAt === null && boundary && holdsFirstPart(text, boundary)) firstPartAt = performance.now();
      }
      const done = performance.now();
      const good =
        response.statusCode >= 200 &&
        response.statusCode < 300 &&
        boundary !== null &&
        firstPartAt !== null &&
        !text.includes('"errors":') &&
        text.includes('"hasNext":false');
      if (!good) {
        failed++;
        return;
      }
      ok++;
      samples.push((done - sent) * 1000);
      firstPartSamples.push(((firstPartAt as number) - sent) * 1000);
    } catch {
      failed++;
    }
  };

  let seconds = 0;
  let answeredBefore = 0;
  const ticker = setInterval(() => {
    const answered = ok + failed;
    options.onTick?.(++seconds, answered - answeredBefore);
    answeredBefore = answered;
  }, 1000);
  try {
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < endAt) await one();
      }),
    );
  } finally {
    clearInterval(ticker);
    await pool.close();
  }
  return {
    durationSec: (performance.now() - started) / 1000,
    ok,
    errors: failed,
    samples,
    firstPartSamples,
  };
}
