/**
 * Where time-based parts read the time and schedule repeating work: the real clock unless a
 * test passes one it moves by hand (test-support's `manualClock`), so tests drive time
 * instead of sleeping. Parts that only read the time take a bare `now?: () => number`.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale (only differences mean anything). */
  now(): number;
  /** Runs `run` every `ms` until cancelled; on the real clock the timer does not keep the process alive. */
  every(ms: number, run: () => unknown): { cancel(): void };
  /** Runs `run` once, `ms` from now, unless cancelled first; unref'd on the real clock as well. */
  after(ms: number, run: () => unknown): { cancel(): void };
}
