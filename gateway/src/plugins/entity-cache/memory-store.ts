import type { EntityStore, EvictionListener, InvalidationTarget, StoreEntry } from './store.js';

interface Held {
  readonly value: string;
  readonly bytes: number;
  readonly expiresAt: number;
  readonly space: string;
  readonly subgraph: string;
  readonly type: string;
}

interface Space {
  bytes: number;
  /** Its keys, least recently read (or written) first. */
  readonly keys: Set<string>;
}

/** Bytes an entry is charged: its key and value (one byte a character, as V8 keeps ASCII) and the maps' overhead. */
const ENTRY_OVERHEAD = 160;

export interface MemoryStoreOptions {
  readonly maxBytes: number;
  /** The most one key space (a subgraph's type, one identity's private answers) may hold. */
  readonly maxSpaceBytes: number;
  readonly onEvict?: EvictionListener;
  readonly now?: () => number;
}

/**
 * An LRU bounded in bytes. A write over its key space's share first evicts that space's
 * least recently read entries, so a client that fills one space (random arguments, many identities'
 * worth of private answers under its own) pushes out its own entries, not everyone's;
 * only then does the store evict its least recently read entries overall.
 */
export class MemoryStore implements EntityStore {
  readonly #options: MemoryStoreOptions;
  readonly #now: () => number;
  /** Least recently read first. */
  readonly #entries = new Map<string, Held>();
  readonly #spaces = new Map<string, Space>();
  #bytes = 0;

  constructor(options: MemoryStoreOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(keys: readonly string[]): (string | undefined)[] {
    const now = this.#now();
    return keys.map((key) => {
      const held = this.#entries.get(key);
      if (!held) return undefined;
      if (held.expiresAt <= now) {
        this.#drop(key, held);
        return undefined;
      }
      this.#entries.delete(key);
      this.#entries.set(key, held);
      const { keys: inSpace } = this.#spaces.get(held.space) as Space;
      inSpace.delete(key);
      inSpace.add(key);
      return held.value;
    });
  }

  set(entries: readonly StoreEntry[]): void {
    const now = this.#now();
    for (const entry of entries) {
      const bytes = Buffer.byteLength(entry.key) + Buffer.byteLength(entry.value) + ENTRY_OVERHEAD;
      if (bytes > this.#options.maxSpaceBytes || entry.ttlMs <= 0) continue;
      const previous = this.#entries.get(entry.key);
      if (previous) this.#drop(entry.key, previous);
      const crowded = this.#spaces.get(entry.space);
      for (const key of crowded?.keys ?? []) {
        if ((crowded as Space).bytes + bytes <= this.#options.maxSpaceBytes) break;
        this.#evict(key);
      }
      for (const key of this.#entries.keys()) {
        if (this.#bytes + bytes <= this.#options.maxBytes) break;
        this.#evict(key);
      }
      // Looked up after the evictions: a space they emptied is gone from the map.
      let space = this.#spaces.get(entry.space);
      if (!space) {
        space = { bytes: 0, keys: new Set() };
        this.#spaces.set(entry.space, space);
      }
      const held: Held = {
        value: entry.value,
        bytes,
        expiresAt: now + entry.ttlMs,
        space: entry.space,
        subgraph: entry.subgraph,
        type: entry.type,
      };
      this.#entries.set(entry.key, held);
      space.keys.add(entry.key);
      space.bytes += bytes;
      this.#bytes += bytes;
    }
  }

  /** A scan of every entry: invalidations are rare next to reads, and this keeps reads and writes O(1). */
  async invalidate(target: InvalidationTarget): Promise<number> {
    let dropped = 0;
    for (const [key, held] of this.#entries) {
      if (held.subgraph !== target.subgraph) continue;
      if (target.type !== undefined && held.type !== target.type) continue;
      if (target.entity !== undefined && !key.includes(`:${target.entity}:`)) continue;
      this.#drop(key, held);
      dropped++;
    }
    return dropped;
  }

  async close(): Promise<void> {
    this.#entries.clear();
    this.#spaces.clear();
    this.#bytes = 0;
  }

  #evict(key: string): void {
    const held = this.#entries.get(key);
    if (!held) return;
    this.#drop(key, held);
    this.#options.onEvict?.(held.subgraph, held.type);
  }

  #drop(key: string, held: Held): void {
    this.#entries.delete(key);
    this.#bytes -= held.bytes;
    const space = this.#spaces.get(held.space);
    if (!space) return;
    space.keys.delete(key);
    space.bytes -= held.bytes;
    if (space.keys.size === 0) this.#spaces.delete(held.space);
  }
}
