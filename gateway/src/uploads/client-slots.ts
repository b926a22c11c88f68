import type { ClientKeyOf } from '../contract/index.js';

/** A slot held by one upload in flight; `release` is idempotent. */
export interface UploadSlot {
  release(): void;
}

/**
 * Uploads in flight per client (UPLOAD_MAX_PER_CLIENT): each holds a pooled subgraph connection
 * and its buffers for as long as its client trickles bytes, so one address must not hold them
 * all. Keyed by the client's network (`keyOf` without an identity: an IPv4 address, an IPv6
 * network), as the other pre-authentication caps are: the slot is taken before the body is read.
 */
export class UploadSlots {
  readonly #perClient = new Map<string, number>();
  readonly #maxPerClient: number;
  readonly #keyOf: ClientKeyOf;

  constructor(maxPerClient: number, keyOf: ClientKeyOf) {
    this.#maxPerClient = maxPerClient;
    this.#keyOf = keyOf;
  }

  /** A slot for the address's client, or undefined when it already holds UPLOAD_MAX_PER_CLIENT. */
  take(address: string): UploadSlot | undefined {
    const client = this.#keyOf(address);
    const held = this.#perClient.get(client) ?? 0;
    if (held >= this.#maxPerClient) return undefined;
    this.#perClient.set(client, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#perClient.get(client) ?? 1) - 1;
        if (left > 0) this.#perClient.set(client, left);
        else this.#perClient.delete(client);
      },
    };
  }

  /** Uploads in flight for the address's client (for tests and metrics). */
  held(address: string): number {
    return this.#perClient.get(this.#keyOf(address)) ?? 0;
  }

  /** Clients with an upload in flight: none once every upload has ended. */
  get clients(): number {
    return this.#perClient.size;
  }
}
