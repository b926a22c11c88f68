import type { EntityCacheInvalidationEvent, Logger } from '../../plugin-sdk/index.js';
import type { EntityStore, InvalidationTarget, StoreEntry } from './store.js';

export type InvalidationOutcome = EntityCacheInvalidationEvent['outcome'];

/** What became of one invalidation: `dropped` entries went; `queued` when the store could not take it yet. */
export interface InvalidationResult {
  readonly dropped: number;
  readonly queued: boolean;
}

export interface PendingInvalidationsOptions {
  /**
   * No entry lives longer than this (ENTITY_CACHE_MAX_TTL): an invalidation still pending this
   * long after it was asked for names nothing the store still holds, and is given up (`expired`).
   */
  readonly maxTtlMs: number;
  /** The most invalidations kept for a retry (past it they are merged per subgraph). Default: 1 000. */
  readonly maxPending?: number;
  /** The first retry's delay, doubled after each round that fails. Default: 100 ms. */
  readonly retryMinMs?: number;
  /** The longest delay between retries. Default: 1 000 ms (the Redis store's probe interval). */
  readonly retryMaxMs?: number;
  /** The clock and the timer, injected by tests. Default: `Date.now` and an unref'd `setTimeout`. */
  readonly now?: () => number;
  readonly schedule?: (run: () => void, ms: number) => () => void;
  /** Each outcome, with how many entries went (`applied`, `retried`) and how many are pending after it. */
  readonly onOutcome?: (
    outcome: InvalidationOutcome,
    target: InvalidationTarget,
    dropped: number,
    pending: number,
  ) => void;
  readonly logger?: Logger;
}

interface Pending {
  readonly target: InvalidationTarget;
  /** When it was last asked for: a retry that started later covers it. */
  askedAt: number;
}

const idOf = (target: InvalidationTarget) => JSON.stringify([target.subgraph, target.type, target.entity]);

const defaultSchedule = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * The store behind an invalidation that is never lost. An invalidation the store cannot take
 * (Redis down, frozen, restarting: its `invalidate` rejects) is kept and retried, with a
 * growing delay up to `retryMaxMs`, until the store takes it or until every entry it could name
 * has outlived `maxTtlMs`. Meanwhile this gateway neither reads nor writes the store (every
 * lookup is a bypass): when Redis comes back with the old entries (persistence, a partition
 * healed) it serves none of them before the invalidation is applied. The queue is bounded:
 * full, its targets are merged into one whole-subgraph invalidation per subgraph (more is
 * dropped, never less); with more subgraph names than it holds, the new one is dropped and the
 * cache stays off here until `maxTtlMs` has passed. See ADR 050.
 */
export class PendingInvalidations implements EntityStore {
  readonly #store: EntityStore;
  readonly #maxTtlMs: number;
  readonly #maxPending: number;
  readonly #retryMinMs: number;
  readonly #retryMaxMs: number;
  readonly #now: () => number;
  readonly #schedule: (run: () => void, ms: number) => () => void;
  readonly #onOutcome: NonNullable<PendingInvalidationsOptions['onOutcome']>;
  readonly #logger: Logger | undefined;
  readonly #pending = new Map<string, Pending>();
  /** Set when a target could not even be queued: the cache is off here until then. */
  #offUntil = 0;
  #delayMs: number;
  #cancel: (() => void) | undefined;
  #retrying = false;
  #closed = false;

  constructor(store: EntityStore, options: PendingInvalidationsOptions) {
    this.#store = store;
    this.#maxTtlMs = options.maxTtlMs;
    this.#maxPending = options.maxPending ?? 1_000;
    this.#retryMinMs = options.retryMinMs ?? 100;
    this.#retryMaxMs = options.retryMaxMs ?? 1_000;
    this.#delayMs = this.#retryMinMs;
    this.#now = options.now ?? Date.now;
    this.#schedule = options.schedule ?? defaultSchedule;
    this.#onOutcome = options.onOutcome ?? (() => undefined);
    this.#logger = options.logger;
  }

  /** Invalidations waiting for the store. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Whether lookups and writes reach the store: not while an invalidation waits for it. */
  get serving(): boolean {
    return this.#pending.size === 0 && this.#now() >= this.#offUntil;
  }

  get(keys: readonly string[]): ReturnType<EntityStore['get']> {
    return this.serving ? this.#store.get(keys) : undefined;
  }

  set(entries: readonly StoreEntry[]): void {
    if (this.serving) this.#store.set(entries);
  }

  async invalidate(target: InvalidationTarget): Promise<number> {
    return (await this.apply(target)).dropped;
  }

  /** Applies `target` now, or keeps it for a retry when the store cannot take it. */
  async apply(target: InvalidationTarget): Promise<InvalidationResult> {
    const askedAt = this.#now();
    try {
      const dropped = await this.#store.invalidate(target);
      // An earlier request for the same entries, still waiting, is covered by this one.
      const waiting = this.#pending.get(idOf(target));
      if (waiting && waiting.askedAt <= askedAt) this.#pending.delete(idOf(target));
      this.#onOutcome('applied', target, dropped, this.#pending.size);
      // The store answers again: the waiting ones need not wait for their timer.
      if (this.#pending.size > 0 && !this.#retrying) {
        this.#cancel?.();
        this.#cancel = undefined;
        this.#delayMs = this.#retryMinMs;
        void this.#retry();
      }
      return { dropped, queued: false };
    } catch (error) {
      this.#queue(target, askedAt, error);
      return { dropped: 0, queued: true };
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#cancel?.();
    if (this.#pending.size > 0) {
      this.#logger?.warn(
        { pending: this.#pending.size },
        'entity cache invalidations still pending at shutdown: the entries they name live out their TTLs',
      );
    }
    await this.#store.close();
  }

  #queue(target: InvalidationTarget, askedAt: number, error: unknown): void {
    if (this.#closed) return;
    const first = this.#pending.size === 0;
    const id = idOf(target);
    const waiting = this.#pending.get(id) ?? this.#pending.get(idOf({ subgraph: target.subgraph }));
    if (waiting) {
      waiting.askedAt = Math.max(waiting.askedAt, askedAt);
    } else {
      if (this.#pending.size >= this.#maxPending) this.#merge();
      if (this.#pending.size >= this.#maxPending && !this.#pending.has(idOf({ subgraph: target.subgraph }))) {
        this.#offUntil = Math.max(this.#offUntil, askedAt + this.#maxTtlMs);
        this.#logger?.error(
          { subgraph: target.subgraph, type: target.type, pending: this.#pending.size },
          'entity cache invalidation queue full: dropped; this gateway serves nothing from the cache until the entries it named have expired',
        );
        this.#onOutcome('dropped', target, 0, this.#pending.size);
        return;
      }
      const merged = this.#pending.get(idOf({ subgraph: target.subgraph }));
      if (merged) merged.askedAt = Math.max(merged.askedAt, askedAt);
      else this.#pending.set(id, { target, askedAt });
    }
    this.#onOutcome('queued', target, 0, this.#pending.size);
    if (first) {
      this.#logger?.warn(
        { err: error, subgraph: target.subgraph, type: target.type },
        'entity cache invalidation failed: retried until the store takes it; this gateway serves nothing from the cache meanwhile',
      );
      this.#delayMs = this.#retryMinMs;
      this.#scheduleRetry();
    }
  }

  /** Full: every subgraph's waiting targets become one invalidation of the whole subgraph. */
  #merge(): void {
    const bySubgraph = new Map<string, Pending[]>();
    for (const waiting of this.#pending.values()) {
      const list = bySubgraph.get(waiting.target.subgraph) ?? [];
      list.push(waiting);
      bySubgraph.set(waiting.target.subgraph, list);
    }
    this.#pending.clear();
    for (const [subgraph, list] of bySubgraph) {
      const target = { subgraph };
      this.#pending.set(idOf(target), { target, askedAt: Math.max(...list.map((waiting) => waiting.askedAt)) });
      for (const waiting of list) {
        if (waiting.target.type !== undefined) this.#onOutcome('merged', waiting.target, 0, this.#pending.size);
      }
    }
    this.#logger?.warn(
      { pending: this.#pending.size },
      'entity cache invalidation queue full: merged into whole-subgraph invalidations',
    );
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#cancel) return;
    this.#cancel = this.#schedule(() => {
      this.#cancel = undefined;
      void this.#retry();
    }, this.#delayMs);
  }

  /** One round: the waiting targets in the order asked, until the store fails again. */
  async #retry(): Promise<void> {
    if (this.#retrying || this.#closed) return;
    this.#retrying = true;
    let applied = 0;
    try {
      for (const [id, waiting] of [...this.#pending]) {
        const startedAt = this.#now();
        if (startedAt >= waiting.askedAt + this.#maxTtlMs) {
          this.#pending.delete(id);
          this.#logger?.warn(
            { subgraph: waiting.target.subgraph, type: waiting.target.type },
            'entity cache invalidation given up: every entry it named has expired',
          );
          this.#onOutcome('expired', waiting.target, 0, this.#pending.size);
          continue;
        }
        let dropped: number;
        try {
          dropped = await this.#store.invalidate(waiting.target);
        } catch {
          break; // still unreachable: the rest waits for the next round
        }
        // Asked for again while this ran: the entries written meanwhile need another round.
        if (this.#pending.get(id) === waiting && waiting.askedAt <= startedAt) this.#pending.delete(id);
        applied++;
        this.#onOutcome('retried', waiting.target, dropped, this.#pending.size);
      }
    } finally {
      this.#retrying = false;
    }
    if (this.#pending.size === 0) {
      if (applied > 0)
        this.#logger?.info({ applied }, 'entity cache invalidations applied: serving from the cache again');
      return;
    }
    this.#delayMs = applied > 0 ? this.#retryMinMs : Math.min(this.#delayMs * 2, this.#retryMaxMs);
    this.#scheduleRetry();
  }
}
