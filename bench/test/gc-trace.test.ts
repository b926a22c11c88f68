import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GC_TRACE_FLAG, GcTraceReader, parseGcTraceLine, summarizeGc } from '../src/measure/gc-trace.js';

// Shortened from Node 24's own `--trace-gc-nvp` output (the fields the parser reads kept as printed).
const SCAVENGE =
  '[24824:0x33d63000:0]       62 ms: pause=7.0 mutator=0.7 gc=s reduce_memory=0 interleaved=0 incremental.steps_count=0 ' +
  'incremental.steps_took=0.0 start_object_size=5436632 allocated=711312 promoted=879472 quarantined_size=0';
const MARK_COMPACT =
  '[24824:0x33d63000:0]     3120 ms: pause=171.8 mutator=2814.6 gc=mc reduce_memory=0 incremental=388.6 ' +
  'incremental.sweeping=0.0 incremental_steps_count=14 allocated=220601016 promoted=34734672 compaction_speed=1.0';

const REQUEST_LINE = '{"level":30,"time":1,"msg":"request completed"}\n';

describe('--trace-gc-nvp lines', () => {
  it('reads kind, pause, allocated and promoted bytes; a mark-compact also its incremental steps', () => {
    expect(parseGcTraceLine(SCAVENGE)).toEqual({
      kind: 'scavenge',
      pauseMs: 7,
      incrementalMs: 0,
      allocatedBytes: 711_312,
      promotedBytes: 879_472,
    });
    expect(parseGcTraceLine(MARK_COMPACT)).toEqual({
      kind: 'mark-compact',
      pauseMs: 171.8,
      incrementalMs: 388.6,
      allocatedBytes: 220_601_016,
      promotedBytes: 34_734_672,
    });
  });

  it('ignores every other line: request logs, plain --trace-gc lines, unknown kinds', () => {
    expect(parseGcTraceLine('{"level":30,"msg":"request completed","path":"/graphql"}')).toBeNull();
    expect(parseGcTraceLine('[1:0x1]    55 ms: Scavenge 4.9 (5.9) -> 4.5 (6.9) MB, pause 1.5 ms')).toBeNull();
    expect(parseGcTraceLine(SCAVENGE.replace('gc=s', 'gc=zz'))).toBeNull();
    // A size V8 printed unsigned after it went negative (a forced collection): read as 0, not 2^64.
    expect(
      parseGcTraceLine(SCAVENGE.replace('allocated=711312', 'allocated=18446744073709551000'))?.allocatedBytes,
    ).toBe(0);
  });

  it('joins lines split across output chunks, and a window is the events between two marks', () => {
    const reader = new GcTraceReader();
    reader.feed(`{"level":30,"msg":"request completed"}\n${SCAVENGE.slice(0, 40)}`);
    const mark = reader.mark();
    expect(mark).toEqual({ events: 0, requests: 1 });
    reader.feed(`${SCAVENGE.slice(40)}\n${MARK_COMPACT}\n${SCAVENGE.slice(0, 10)}`);
    expect(reader.since(mark).map((event) => event.kind)).toEqual(['scavenge', 'mark-compact']);
    expect(reader.since(reader.mark())).toEqual([]);
  });

  it('divides a window by the requests the gateway logged as finished, else by those answered in time', () => {
    const reader = new GcTraceReader();
    const mark = reader.mark();
    reader.feed(`${SCAVENGE}\n`);
    expect(reader.summarize(mark, 10)?.allocatedKbPerRequest).toBe(71.1); // 711,312 B / 10
    reader.feed(REQUEST_LINE.repeat(4));
    expect(reader.requestsSince(mark)).toBe(4);
    expect(reader.summarize(mark, 10)?.allocatedKbPerRequest).toBe(177.8); // / 4 finished, 10 answered ignored
  });

  it('with two collections or more, takes the bytes between the first and the last over the requests finished between them', () => {
    const reader = new GcTraceReader();
    const mark = reader.mark();
    // 3 requests, then a collection (its bytes began before the window), 2 requests, a collection, 1 request.
    reader.feed(`${REQUEST_LINE.repeat(3)}${SCAVENGE}\n${REQUEST_LINE.repeat(2)}${MARK_COMPACT}\n${REQUEST_LINE}`);
    const summary = reader.summarize(mark, 100);
    expect(summary?.allocatedKbPerRequest).toBe(110300.5); // the mark-compact's 220,601,016 B / 2 requests
    expect(summary?.promotedKbPerRequest).toBe(17367.3);
    expect(summary?.scavenges).toBe(1); // counts and pauses: the whole window
    expect(summary?.markCompacts).toBe(1);
  });

  it('sums a window per request: KB allocated and promoted, scavenges, full collections with their main-thread time', () => {
    const events = [SCAVENGE, SCAVENGE, MARK_COMPACT].map((line) => parseGcTraceLine(line)).filter((e) => e !== null);
    expect(summarizeGc(events, 1000)).toEqual({
      allocatedKbPerRequest: 222.0, // (2 × 711,312 + 220,601,016) B / 1000 requests
      promotedKbPerRequest: 36.5, // (2 × 879,472 + 34,734,672) B / 1000
      scavenges: 2,
      scavengePauseMs: 14,
      markCompacts: 1,
      markCompactPauseMs: 560.4, // 171.8 + 388.6
      markCompactMaxMs: 560.4,
    });
    // A collection forced to close the window: its bytes count, not its pause.
    const closing = [parseGcTraceLine(MARK_COMPACT)].filter((e) => e !== null);
    expect(summarizeGc(events.slice(0, 2), 1000, closing)).toMatchObject({
      allocatedKbPerRequest: 222.0,
      promotedKbPerRequest: 36.5,
      scavenges: 2,
      markCompacts: 0,
      markCompactPauseMs: 0,
    });
    expect(summarizeGc(events, 0)).toBeNull();
    expect(summarizeGc([], 10)).toBeNull();
  });

  it("reads this Node's own output (the format is V8's, not ours)", () => {
    const run = spawnSync(
      process.execPath,
      [
        GC_TRACE_FLAG,
        '-e',
        'let keep = []; for (let i = 0; i < 3e5; i++) { keep.push({ i }); if (keep.length > 5e4) keep = []; }',
      ],
      { encoding: 'utf8' },
    );
    const reader = new GcTraceReader();
    reader.feed(run.stdout);
    const events = reader.since({ events: 0, requests: 0 });
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.allocatedBytes > 0 && event.pauseMs >= 0)).toBe(true);
  });
});
