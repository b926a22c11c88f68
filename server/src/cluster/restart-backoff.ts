/** A worker that ran at least this long after it was ready died of something other than a crash loop. */
export const STABLE_AFTER_MS = 10_000;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;

/**
 * How long to wait before replacing a dead worker: at once after a worker that had run
 * stably, then 1 s, 2 s, 4 s … up to 30 s while workers keep dying young, so a crash loop
 * (a poisoned request, a bad deploy) does not spin the CPU forking.
 */
export class RestartBackoff {
  private crashes = 0;

  /** Records a death and returns the delay before its replacement. */
  next(readyForMs: number | undefined): number {
    if (readyForMs !== undefined && readyForMs >= STABLE_AFTER_MS) this.crashes = 0;
    else this.crashes += 1;
    return this.crashes === 0 ? 0 : Math.min(FIRST_DELAY_MS * 2 ** (this.crashes - 1), MAX_DELAY_MS);
  }
}
