import { createHash } from 'node:crypto';
import { type Clock, realClock } from '../clock.js';
import { discardBody, readBoundedBody, TOO_LARGE } from '../read-bounded-body.js';

export interface FetchTextOptions {
  /** Never shown in errors: it may carry a signed token. */
  url: string;
  /** Bounds the whole fetch, headers and body. */
  timeoutMs: number;
  /** A larger body is abandoned mid-read. */
  maxBytes: number;
}

export type Fetched =
  | { readonly modified: false }
  | { readonly modified: true; readonly text: string; readonly etag?: string };

/** A fetch that failed, with a reason fit for logs: a status, a timeout, an error code; never the URL. */
export class FetchTextError extends Error {
  override name = 'FetchTextError';
}

/**
 * One conditional GET: with `etag`, sends `If-None-Match`, and a 304 answer means the
 * text the caller holds is current. Redirects are not followed (a 3xx is an error).
 */
export async function fetchText(options: FetchTextOptions, etag?: string): Promise<Fetched> {
  // undici's index loads all of undici (fetch, WebSocket…): only a gateway that polls a URL pays for it.
  const { request } = await import('undici');
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await request(options.url, {
      method: 'GET',
      headers: etag ? { 'if-none-match': etag } : {},
      signal,
    });
    if (response.statusCode === 304 && etag) {
      discardBody(response.body);
      return { modified: false };
    }
    if (response.statusCode !== 200) {
      discardBody(response.body);
      throw new FetchTextError(`HTTP ${response.statusCode}`);
    }
    const read = await readBoundedBody(response.body, response.headers, options.maxBytes);
    if (read === TOO_LARGE) throw new FetchTextError(`larger than ${options.maxBytes} bytes`);
    const header = response.headers.etag;
    return { modified: true, text: read.text, ...(typeof header === 'string' ? { etag: header } : {}) };
  } catch (error) {
    if (error instanceof FetchTextError) throw error;
    if (signal.aborted) throw new FetchTextError(`no answer within ${options.timeoutMs} ms`);
    // undici's messages can name the host; its codes (ECONNREFUSED, UND_ERR_SOCKET…) do not.
    const code = (error as { code?: unknown }).code;
    throw new FetchTextError(typeof code === 'string' ? code : 'fetch failed', { cause: error });
  }
}

export interface PollUrlOptions extends FetchTextOptions {
  intervalMs: number;
  /** What the caller already holds (from its first fetch), so the first poll can be a 304. */
  initial?: { text: string; etag?: string };
  /** The text changed. A rejection is the caller's to report; polling goes on. */
  onChange(text: string): Promise<void> | void;
  /** The fetch failed (FetchTextError); polling goes on. */
  onError(error: unknown): void;
  /** What schedules the polls. Default: the real clock. */
  clock?: Clock;
}

export interface UrlPoller {
  /** Stops polling; an in-flight fetch or `onChange` is not awaited. */
  close(): void;
}

/**
 * Polls a URL with `If-None-Match`. A server without ETags gets a full GET each time, and
 * an unchanged body (same hash) is still not reported. A new ETag is kept even when the
 * caller rejects its text, so a bad document is reported once, not at every poll.
 */
export function pollUrl(options: PollUrlOptions): UrlPoller {
  let etag = options.initial?.etag;
  let lastHash = options.initial ? hashOf(options.initial.text) : '';
  let running = false;
  let closed = false;
  const tick = async () => {
    if (running) return; // a slow server or onChange is not re-entered
    running = true;
    try {
      const fetched = await fetchText(options, etag);
      if (closed || !fetched.modified) return;
      etag = fetched.etag;
      const hash = hashOf(fetched.text);
      if (hash === lastHash) return;
      lastHash = hash;
      await options.onChange(fetched.text);
    } catch (error) {
      if (!closed) options.onError(error);
    } finally {
      running = false;
    }
  };
  const polls = (options.clock ?? realClock).every(options.intervalMs, tick);
  return {
    close() {
      closed = true;
      polls.cancel();
    },
  };
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
