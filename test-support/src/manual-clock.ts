/**
 * A clock a test moves by hand, for the parts that take one (gateway/src/clock.ts's `Clock`:
 * `now()`, `every()`, `after()`; the parts that only read the time take `clock.now`).
 * `advance(ms)` runs every callback that falls due, in time order, and waits for what each
 * returns: a poll's file read and reload are over when it resolves.
 */
export interface ManualClock {
  now(): number;
  every(ms: number, run: () => unknown): { cancel(): void };
  after(ms: number, run: () => unknown): { cancel(): void };
  /** Moves the time by `ms`, running (and awaiting) each callback as it falls due. */
  advance(ms: number): Promise<void>;
  /** Callbacks still to run (not cancelled, and for `after`, not run yet): 0 once every poller has closed. */
  readonly scheduled: number;
}

interface Scheduled {
  readonly run: () => unknown;
  /** The period of a repeating callback; undefined for one that runs once. */
  readonly every: number | undefined;
  due: number;
  /** Ties run in the order they were scheduled. */
  readonly order: number;
}

export function manualClock(start = 1_000_000): ManualClock {
  let time = start;
  let scheduledSoFar = 0;
  const scheduled = new Set<Scheduled>();
  const schedule = (ms: number, run: () => unknown, every: number | undefined) => {
    const entry: Scheduled = { run, every, due: time + ms, order: scheduledSoFar++ };
    scheduled.add(entry);
    return { cancel: () => void scheduled.delete(entry) };
  };
  return {
    now: () => time,
    every(ms, run) {
      if (!(ms > 0)) throw new Error(`manualClock.every: a period of ${ms} ms never ends`);
      return schedule(ms, run, ms);
    },
    after: (ms, run) => schedule(Math.max(0, ms), run, undefined),
    async advance(ms) {
      const until = time + ms;
      for (;;) {
        const next = [...scheduled].sort((a, b) => a.due - b.due || a.order - b.order)[0];
        if (!next || next.due > until) break;
        time = next.due;
        if (next.every === undefined) scheduled.delete(next);
        else next.due += next.every;
        await next.run();
      }
      time = until;
    },
    get scheduled() {
      return scheduled.size;
    },
  };
}
