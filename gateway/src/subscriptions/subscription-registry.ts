import { ClientErrorCode } from '../error-registry.js';
import type { LiveSubscription } from './live-subscription.js';
import { SubscriptionEnd } from './subscription-end.js';

/** Why a subscription was not admitted: its client holds its maximum, or all clients together do. */
export type AdmitRefusal = 'client' | 'total';

/** A slot for one subscription: hold it while it lives, release it once. */
export interface SubscriptionSlot {
  add(subscription: LiveSubscription): void;
  release(): void;
}

/**
 * Every live subscription of this process: the per-client cap, the cap on all of them together
 * (SUBSCRIPTION_MAX_OPEN, Apollo Router's `max_opened_subscriptions`), and ending them all at once
 * (drain, a new supergraph). Clients are told apart by the key the caller gives (`clientKey`:
 * the verified subject, else the network, with the API key's consumer when there is one).
 */
export class SubscriptionRegistry {
  readonly #live = new Set<LiveSubscription>();
  readonly #perClient = new Map<string, number>();
  readonly #maxPerClient: number;
  readonly #maxOpen: number;
  /** Admitted and not released (a slot counts from admission, before its subscription is added). */
  #open = 0;
  #closed = false;

  constructor(maxPerClient: number, maxOpen = Number.POSITIVE_INFINITY) {
    this.#maxPerClient = maxPerClient;
    this.#maxOpen = maxOpen;
  }

  /** True once draining began: no new subscription is admitted. */
  get closed(): boolean {
    return this.#closed;
  }

  get size(): number {
    return this.#live.size;
  }

  /** A slot for one more subscription of `client`, or why there is none. */
  admit(client: string): SubscriptionSlot | AdmitRefusal {
    if (this.#open >= this.#maxOpen) return 'total';
    const count = this.#perClient.get(client) ?? 0;
    if (count >= this.#maxPerClient) return 'client';
    this.#open += 1;
    this.#perClient.set(client, count + 1);
    let held: LiveSubscription | undefined;
    let released = false;
    return {
      add: (subscription) => {
        held = subscription;
        this.#live.add(subscription);
      },
      release: () => {
        if (released) return;
        released = true;
        this.#open -= 1;
        if (held) this.#live.delete(held);
        const left = (this.#perClient.get(client) ?? 1) - 1;
        if (left === 0) this.#perClient.delete(client);
        else this.#perClient.set(client, left);
      },
    };
  }

  /** Drain: every subscription completes cleanly (no error: nothing went wrong, clients reconnect elsewhere). */
  completeAll(): void {
    this.#closed = true;
    for (const subscription of this.#live) subscription.end();
  }

  /** A new supergraph: plans made for the old one stop, each with SUBSCRIPTION_SCHEMA_RELOAD. */
  endAllForReload(): void {
    for (const subscription of this.#live) {
      subscription.end(
        SubscriptionEnd.of(
          ClientErrorCode.SUBSCRIPTION_SCHEMA_RELOAD,
          'The gateway loaded a new supergraph; subscribe again.',
        ),
      );
    }
  }
}
