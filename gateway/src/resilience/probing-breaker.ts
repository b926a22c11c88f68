export interface ProbingBreakerOptions {
  /** After this many failures in a row the dependency is skipped. */
  readonly failuresBeforeSkip: number;
  /** How often a skipped dependency is probed. */
  readonly probeIntervalMs: number;
  /** One cheap round trip (a Redis PING): resolving means the dependency answers again. */
  readonly probe: () => Promise<unknown>;
}

/**
 * A breaker for a shared store the gateway can do without (Redis behind the rate limit and
 * the entity cache): after a few failures in a row its users skip it at once instead of
 * each waiting for a timeout, while one probe at a time asks it in the background; the
 * first answer ends the skip. Unlike the subgraphs' CircuitBreaker no request is ever the
 * probe, so a request never pays for finding out that the store is still down.
 */
export class ProbingBreaker {
  readonly #options: ProbingBreakerOptions;
  #failures = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ProbingBreakerOptions) {
    this.#options = options;
  }

  /** Whether the dependency is skipped now: use it only when this is false. */
  get skipping(): boolean {
    return this.#timer !== undefined;
  }

  succeeded(): void {
    this.#failures = 0;
  }

  failed(): void {
    if (++this.#failures < this.#options.failuresBeforeSkip || this.#timer || this.#closed) return;
    let probing = false;
    this.#timer = setInterval(() => {
      if (probing) return;
      probing = true;
      this.#options
        .probe()
        .then(() => {
          clearInterval(this.#timer);
          this.#timer = undefined;
          this.#failures = 0;
        })
        .catch(() => undefined)
        .finally(() => {
          probing = false;
        });
    }, this.#options.probeIntervalMs);
    // A skipped store must not keep the process alive.
    this.#timer.unref();
  }

  /** Stops probing for good: the store is being closed. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
