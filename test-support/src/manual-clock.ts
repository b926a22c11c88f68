/**
 * A clock a test moves by hand, for the parts that take one (gateway/src/clock.ts's `Clock`:
 * `now()` and `every()`; the parts that only read the time take `clock.now`). `advance(ms)`
 * runs every repeating callback that falls due, in time order, and waits for what each
 * returns: a poll's file read and reload are over when it resolves.
 */
export interface ManualClock {
  now(): number;
  every(ms: number, run: () => unknown): { cancel(): void };
  /** Moves the time by `ms`, running (and awaiting) each callback as it falls due. */
  advance(ms: number): Promise<void>;
  /** Repeating callbacks not cancelled: 0 once every poller has closed. */
  readonly scheduled: number;
}

interface Repeating {
  readonly ms: number;
  readonly run: () => unknown;
  due: number;
}

export function manualClock(start = 1_000_000): ManualClock {
  let time = start;
  const repeating = new Set<Repeating>();
  return {
    now: () => time,
    every(ms, run) {
      if (!(ms > 0)) throw new Error(`manualClock.every: a period of ${ms} ms never ends`);
      const entry: Repeating = { ms, run, due: time + ms };
      repeating.add(entry);
      return { cancel: () => void repeating.delete(entry) };
    },
    async advance(ms) {
      const until = time + ms;
      for (;;) {
        const next = [...repeating].sort((a, b) => a.due - b.due)[0];
        if (!next || next.due > until) break;
        time = next.due;
        next.due += next.ms;
        await next.run();
      }
      time = until;
    },
    get scheduled() {
      return repeating.size;
    },
  };
}
