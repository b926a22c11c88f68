import { checkKnownKeys, integer, OptionIssues, optionalValue, withDefault } from '../../plugin-sdk/index.js';
import { PLUGIN_NAME } from './options.js';
import type { RateLimitHit, RateLimitStore } from './store.js';

export interface MemoryStoreOptions {
  /**
   * Most keys held at once. When a new key arrives and the store is full, the window that
   * opened first is dropped (O(1); with one window length that is also the window that ends
   * first, often already expired), so memory stays bounded even when callers spray keys.
   * Default: 100 000.
   */
  maxKeys?: number;
  /** How often expired windows are removed (an unref'd timer). Default: 60 000 ms. */
  sweepIntervalMs?: number;
  /** The clock, in ms. Default: `Date.now`. Tests pass their own to move time. */
  now?: () => number;
}

interface Window {
  count: number;
  resetAt: number;
}

const KNOWN = ['maxKeys', 'sweepIntervalMs', 'now'] as const;
const MEMORY_STORE_VALUES = Object.freeze({
  maxKeys: withDefault(integer(1, 100_000_000), 100_000),
  sweepIntervalMs: withDefault(integer(10, 86_400_000), 60_000),
});

/**
 * The default store: counters in this process's memory. Each gateway instance counts on
 * its own, and counts are lost on restart; use `RedisStore` to share them.
 */
export class MemoryStore implements RateLimitStore {
  readonly #windows = new Map<string, Window>();
  readonly #maxKeys: number;
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: MemoryStoreOptions = {}) {
    const issues = new OptionIssues('MemoryStore.');
    checkKnownKeys(issues, options, KNOWN);
    const raw = options as Record<string, unknown>;
    this.#maxKeys = optionalValue(issues, raw, 'maxKeys', MEMORY_STORE_VALUES.maxKeys);
    const sweepIntervalMs = optionalValue(issues, raw, 'sweepIntervalMs', MEMORY_STORE_VALUES.sweepIntervalMs);
    if (options.now !== undefined && typeof options.now !== 'function') {
      issues.add('now', 'expected a function returning milliseconds');
    }
    issues.throwIfAny(PLUGIN_NAME);

    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => this.#sweep(), sweepIntervalMs);
    this.#sweeper.unref();
  }

  /** How many keys are held now (expired ones included until the next sweep). */
  get size(): number {
    return this.#windows.size;
  }

  async hit(key: string, cost: number, windowMs: number): Promise<RateLimitHit> {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      // Re-inserting keeps the Map ordered by window start, so the first key is the oldest.
      if (window !== undefined) this.#windows.delete(key);
      else if (this.#windows.size >= this.#maxKeys) this.#dropOldest();
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += cost;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#windows.clear();
  }

  #dropOldest(): void {
    const oldest = this.#windows.keys().next();
    if (!oldest.done) this.#windows.delete(oldest.value);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, window] of this.#windows) {
      if (window.resetAt <= now) this.#windows.delete(key);
    }
  }
}
