/**
 * Reads V8's `--trace-gc-nvp` lines (one per collection, name=value pairs) from a gateway's
 * output: what each collection found allocated since the last one, what it promoted to the old
 * generation, and how long it stopped the loop. Allocated and promoted bytes per request move
 * far less with a noisy machine than latency does, so they are the numbers a regression shows in.
 */

export const GC_TRACE_FLAG = '--trace-gc-nvp';

export type GcKind = 'scavenge' | 'minor-mark-sweep' | 'mark-compact';

export interface GcEvent {
  readonly kind: GcKind;
  /** The collection's own stop of the loop (for a mark-compact: its final atomic pause), ms. */
  readonly pauseMs: number;
  /** A mark-compact's incremental marking steps on the main thread before that pause, ms. */
  readonly incrementalMs: number;
  /** Bytes allocated since the previous collection. */
  readonly allocatedBytes: number;
  /** Bytes this collection moved from the young to the old generation. */
  readonly promotedBytes: number;
}

// V8's names in the `gc=` field (gc-tracer.cc): scavenger, minor mark-sweep, full mark-compact.
const KINDS: Readonly<Record<string, GcKind>> = { s: 'scavenge', mms: 'minor-mark-sweep', mc: 'mark-compact' };

/** One `--trace-gc-nvp` line, or null for any other line (log lines, plain --trace-gc lines). */
export function parseGcTraceLine(line: string): GcEvent | null {
  if (!line.includes(' gc=') || !line.includes(' allocated=')) return null;
  const fields = new Map<string, string>();
  for (const pair of line.split(' ')) {
    const at = pair.indexOf('=');
    if (at > 0) fields.set(pair.slice(0, at), pair.slice(at + 1));
  }
  const kind = KINDS[fields.get('gc') ?? ''];
  if (!kind) return null;
  const number = (name: string) => {
    const value = Number(fields.get(name));
    // V8 prints sizes as unsigned: a negative difference (after a forced collection shrank the heap) wraps to ~2^64.
    return Number.isFinite(value) && value < 2 ** 50 ? value : 0;
  };
  return {
    kind,
    pauseMs: number('pause'),
    incrementalMs: kind === 'mark-compact' ? number('incremental') : 0,
    allocatedBytes: number('allocated'),
    promotedBytes: number('promoted'),
  };
}

/** The gateway's one log line per request (plugins/request-log): what it finished, answered in time or not. */
const REQUEST_LINE = '"msg":"request completed"';

/** Where a window starts: the events and request lines read so far. */
export interface GcMark {
  readonly events: number;
  readonly requests: number;
}

/**
 * Collects GC events from a stream of output chunks (lines may be split across chunks), and
 * counts the gateway's request log lines: the requests it finished, including those a client
 * had given up on (which allocated as much), so an overloaded window is divided by what was done.
 */
export class GcTraceReader {
  #partial = '';
  readonly #events: GcEvent[] = [];
  /** Per event: the request lines read before it (both come in stream order on stdout). */
  readonly #requestsAt: number[] = [];
  #requests = 0;

  feed(chunk: string): void {
    const text = this.#partial + chunk;
    const lines = text.split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes(REQUEST_LINE)) {
        this.#requests++;
        continue;
      }
      const event = parseGcTraceLine(line);
      if (event) {
        this.#events.push(event);
        this.#requestsAt.push(this.#requests);
      }
    }
  }

  /** A window is what was read between two marks. */
  mark(): GcMark {
    return { events: this.#events.length, requests: this.#requests };
  }

  since(mark: GcMark): readonly GcEvent[] {
    return this.#events.slice(mark.events);
  }

  /** Request lines since `mark`: 0 when the gateway logs none (LOG_LEVEL above info). */
  requestsSince(mark: GcMark): number {
    return this.#requests - mark.requests;
  }

  /**
   * The window's summary per request the gateway finished (or `answered`, when it logged none).
   * With request lines and two collections or more, the bytes are those between the window's
   * first and last collection, divided by the requests finished between them: a collection
   * reports what was allocated since the one before, so the window's edges would otherwise
   * count up to a whole young generation too much or too little. Counts and pauses are the whole window's.
   */
  summarize(mark: GcMark, answered: number): GcSummary | null {
    const events = this.since(mark);
    const finished = this.requestsSince(mark);
    const whole = summarizeGc(events, finished > 0 ? finished : answered);
    const first = mark.events;
    const last = this.#events.length - 1;
    const between = (this.#requestsAt[last] ?? 0) - (this.#requestsAt[first] ?? 0);
    if (!whole || finished === 0 || last - first < 1 || between <= 0) return whole;
    const inner = summarizeGc(this.#events.slice(first + 1, last + 1), between);
    return inner
      ? {
          ...whole,
          allocatedKbPerRequest: inner.allocatedKbPerRequest,
          promotedKbPerRequest: inner.promotedKbPerRequest,
        }
      : whole;
  }
}

export interface GcSummary {
  /** KB allocated per answered request (1 KB = 1,000 bytes). */
  readonly allocatedKbPerRequest: number;
  /** KB promoted to the old generation per answered request. */
  readonly promotedKbPerRequest: number;
  readonly scavenges: number;
  readonly scavengePauseMs: number;
  /** Full collections (mark-compact) in the window. */
  readonly markCompacts: number;
  /** Their final pauses plus their incremental marking steps on the main thread, ms. */
  readonly markCompactPauseMs: number;
  /** The longest of them (final pause plus steps), ms. */
  readonly markCompactMaxMs: number;
}

/**
 * Sums a window's collections per request; null without requests or collections to divide.
 * `closing`: collections forced after the window to close it exactly (their bytes are the
 * window's last allocations; their count and pauses are not the window's).
 */
export function summarizeGc(
  events: readonly GcEvent[],
  requests: number,
  closing: readonly GcEvent[] = [],
): GcSummary | null {
  if (requests <= 0 || events.length + closing.length === 0) return null;
  let allocated = 0;
  let promoted = 0;
  for (const event of closing) {
    allocated += event.allocatedBytes;
    promoted += event.promotedBytes;
  }
  let scavenges = 0;
  let scavengePause = 0;
  let markCompacts = 0;
  let markCompactPause = 0;
  let markCompactMax = 0;
  for (const event of events) {
    allocated += event.allocatedBytes;
    promoted += event.promotedBytes;
    if (event.kind === 'mark-compact') {
      const cost = event.pauseMs + event.incrementalMs;
      markCompacts += 1;
      markCompactPause += cost;
      markCompactMax = Math.max(markCompactMax, cost);
    } else {
      scavenges += 1;
      scavengePause += event.pauseMs;
    }
  }
  const perRequestKb = (bytes: number) => round(bytes / requests / 1000, 1);
  return {
    allocatedKbPerRequest: perRequestKb(allocated),
    promotedKbPerRequest: perRequestKb(promoted),
    scavenges,
    scavengePauseMs: round(scavengePause, 1),
    markCompacts,
    markCompactPauseMs: round(markCompactPause, 1),
    markCompactMaxMs: round(markCompactMax, 1),
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
