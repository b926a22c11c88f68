/** One answer to keep: under `key`, in a key space that bounds how much of the store it may take. */
export interface StoreEntry {
  readonly key: string;
  readonly value: string;
  readonly ttlMs: number;
  /** `public:<subgraph>:<type>` or `private:<identity digest>`: each may fill only its share of the store. */
  readonly space: string;
  readonly subgraph: string;
  readonly type: string;
}

/** What to drop: a subgraph's entries, one type's, or one entity's (its `@key` values). */
export interface InvalidationTarget {
  readonly subgraph: string;
  readonly type?: string;
  /** Digest of the entity's key (keys.ts); with `type` only. */
  readonly entity?: string;
}

/** Why an entry left the store before its TTL ran out. */
export type EvictionListener = (subgraph: string, type: string) => void;

/**
 * Where the entity cache keeps answers: in memory (memory-store.ts) or Redis
 * (redis-store.ts). A store never throws: `get` answers one value (or undefined) per key, in
 * order, or undefined as a whole when it cannot answer now (Redis down or slow: a bypass,
 * nothing is kept either); a write that fails is dropped. Only `invalidate` may reject, when
 * the store could not drop what the target names: the plugin then retries it
 * (pending-invalidations.ts), and serves nothing from the store until it is applied.
 */
export interface EntityStore {
  get(
    keys: readonly string[],
  ): Promise<readonly (string | undefined)[] | undefined> | readonly (string | undefined)[] | undefined;
  set(entries: readonly StoreEntry[]): void;
  /**
   * Drops what the target names; resolves to how many entries went (when the store can tell),
   * or rejects when it could not (it must then be safe to ask again).
   */
  invalidate(target: InvalidationTarget): Promise<number>;
  close(): Promise<void>;
}
