/** What a store answers for one hit: the window's count after it, and when the window ends. */
export interface RateLimitHit {
  /** The key's total cost in the current window, this hit included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from 0. */
  resetInMs: number;
}

/**
 * Where the rate limiter keeps its counters: a fixed window per key. The first hit on a
 * key (or the first after its window ended) opens a window of `windowMs`; every hit adds
 * `cost` to the key's count until the window ends.
 *
 * `hit` must be atomic per key (N concurrent hits count N) and must settle, resolve or
 * reject, within a bounded time: the plugin awaits it on every request and applies its
 * failure mode when it rejects. The plugin closes a store only if it built it.
 */
export interface RateLimitStore {
  hit(key: string, cost: number, windowMs: number): Promise<RateLimitHit>;
  /** Releases timers and connections; the store is not used afterwards. */
  close(): Promise<void>;
}
