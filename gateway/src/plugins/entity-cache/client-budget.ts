/** Clients counted in one window; past it, new ones share one budget (memory stays bounded whatever the number of addresses). */
const MAX_CLIENTS = 50_000;
const OVERFLOW = '\u0000overflow';

/**
 * What each client may add to the cache per fixed window, in bytes (keys and values): past it,
 * its answers are served but not kept. Key spaces bound how much of the store one *kind* of
 * entry takes; this bounds what one *client* writes, so a client asking for ever new arguments
 * in the space others read cannot push their entries out faster than they read them back.
 */
export class ClientWriteBudget {
  readonly #spent = new Map<string, number>();
  #windowStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly bytesPerWindow: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Charges `bytes` to `client` when they fit in what is left of its window's budget; false (nothing charged) when not. */
  take(client: string, bytes: number): boolean {
    const now = this.now();
    if (now - this.#windowStart >= this.windowMs) {
      this.#spent.clear();
      this.#windowStart = now;
    }
    const key = this.#spent.has(client) || this.#spent.size < MAX_CLIENTS ? client : OVERFLOW;
    const spent = this.#spent.get(key) ?? 0;
    if (spent + bytes > this.bytesPerWindow) return false;
    this.#spent.set(key, spent + bytes);
    return true;
  }
}
