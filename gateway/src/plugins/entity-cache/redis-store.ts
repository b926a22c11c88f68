import { Redis } from 'ioredis';
import { ProbingBreaker, TIMED_OUT, withinDeadline } from '../../plugin-sdk/index.js';
import type { EntityStore, InvalidationTarget, StoreEntry } from './store.js';

export interface RedisEntityStoreOptions {
  /** `redis://` or `rediss://`. */
  readonly url: string;
  /** Prepended to every key. Default: `gw:`. */
  readonly keyPrefix?: string;
  /**
   * A lookup slower than this is a bypass (the subgraph is asked): a cache slower than the
   * subgraph is worth nothing. Default: 100 ms. (Writes, scans and probes get ten times it.)
   */
  readonly commandTimeoutMs?: number;
  /** After this many failed commands in a row, Redis is skipped at once and probed in the background. Default: 3. */
  readonly failuresBeforeSkip?: number;
  /** How often a skipped Redis is probed (PING). Default: 1 000 ms. */
  readonly probeIntervalMs?: number;
}

/** Characters a SCAN MATCH pattern treats specially. */
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * The entity cache in Redis, shared by replicas. Built for a Redis that fails: no offline queue
 * (a lookup while disconnected fails at once), a short command timeout, and a breaker: after a
 * few failures in a row every lookup is a bypass without a round trip until a background PING
 * is answered. It never fails a request: a lookup that fails answers `undefined` (a bypass), a
 * write that fails is dropped, an invalidation that fails rejects (the plugin retries it). What it returns is checked by the plugin (garbage is a miss).
 * Its bound is Redis's own (`maxmemory` with an LRU policy).
 */
export class RedisEntityStore implements EntityStore {
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #breaker: ProbingBreaker;
  readonly #lookupTimeoutMs: number;

  constructor(options: RedisEntityStoreOptions) {
    this.#prefix = options.keyPrefix ?? 'gw:';
    this.#lookupTimeoutMs = options.commandTimeoutMs ?? 100;
    this.#client = new Redis(options.url, {
      enableOfflineQueue: false,
      commandTimeout: this.#lookupTimeoutMs * 10,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 16), 2_000),
    });
    // Without a listener ioredis prints every connection error; failures are counted per command.
    this.#client.on('error', () => undefined);
    this.#breaker = new ProbingBreaker({
      failuresBeforeSkip: options.failuresBeforeSkip ?? 3,
      probeIntervalMs: options.probeIntervalMs ?? 1_000,
      probe: () => this.#client.ping(),
    });
  }

  /** One MGET; `undefined` (a bypass) while Redis is skipped, down or slow. */
  async get(keys: readonly string[]): Promise<readonly (string | undefined)[] | undefined> {
    if (this.#breaker.skipping || this.#client.status !== 'ready') {
      if (!this.#breaker.skipping && this.#client.status === 'wait') this.#client.connect().catch(() => undefined);
      return undefined;
    }
    const lookup = this.#client.mget(keys.map((key) => this.#prefix + key));
    const values = await withinDeadline(lookup, this.#lookupTimeoutMs).catch((): typeof TIMED_OUT => TIMED_OUT);
    if (values === TIMED_OUT) {
      this.#breaker.failed();
      return undefined;
    }
    this.#breaker.succeeded();
    return values.map((value) => (typeof value === 'string' ? value : undefined));
  }

  /** One pipeline of `SET key value PX ttl`; dropped when Redis is skipped or fails. */
  set(entries: readonly StoreEntry[]): void {
    if (this.#breaker.skipping || this.#client.status !== 'ready' || entries.length === 0) return;
    const pipeline = this.#client.pipeline();
    for (const entry of entries) pipeline.set(this.#prefix + entry.key, entry.value, 'PX', entry.ttlMs);
    pipeline.exec().then(
      () => this.#breaker.succeeded(),
      () => this.#breaker.failed(),
    );
  }

  /**
   * SCAN for the target's keys (their layout puts subgraph, type and entity first, keys.ts) and
   * UNLINK them. Rejects when Redis cannot be asked (down, frozen, restarting): the plugin keeps
   * the target and retries it (pending-invalidations.ts). A retry is harmless: what went is gone.
   */
  async invalidate(target: InvalidationTarget): Promise<number> {
    const pattern = [
      `${escapeGlob(this.#prefix)}ec:*`,
      escapeGlob(target.subgraph),
      target.type === undefined ? '*' : escapeGlob(target.type),
      ...(target.type === undefined ? [] : [target.entity === undefined ? '*' : escapeGlob(target.entity), '*']),
    ].join(':');
    let dropped = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.#client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) dropped += await this.#client.unlink(...keys);
    } while (cursor !== '0');
    return dropped;
  }

  async close(): Promise<void> {
    this.#breaker.close();
    if (this.#client.status === 'ready') await this.#client.quit().catch(() => undefined);
    this.#client.disconnect();
  }
}
