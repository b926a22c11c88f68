/**
 * Lets at most `limit` log lines through per `intervalMs` and counts the rest, so an
 * outage (every request failing the same way) cannot flood the log. One per concern:
 * a subgraph's failed fetches, a rate-limit store's failures.
 */
export class LogThrottle {
  readonly #limit: number;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #windowStart = Number.NEGATIVE_INFINITY;
  #inWindow = 0;
  #suppressed = 0;

  constructor(limit: number, intervalMs: number, now: () => number = Date.now) {
    this.#limit = limit;
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  /**
   * Whether this line may be written. When it may, returns how many lines were held back
   * since the last one written (log it with the line); otherwise returns undefined.
   */
  take(): number | undefined {
    const now = this.#now();
    if (now - this.#windowStart >= this.#intervalMs) {
      this.#windowStart = now;
      this.#inWindow = 0;
    }
    if (this.#inWindow >= this.#limit) {
      this.#suppressed++;
      return undefined;
    }
    this.#inWindow++;
    const suppressed = this.#suppressed;
    this.#suppressed = 0;
    return suppressed;
  }
}
