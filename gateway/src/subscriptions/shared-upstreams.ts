import { PER_REQUEST_HEADERS } from '../dedup/in-flight.js';
import { BoundedQueue } from './bounded-queue.js';
import { openSubgraphSocket, queueOptions, type SubgraphEvent, type SubgraphSocketOptions } from './subgraph-socket.js';
import { SubscriptionEnd } from './subscription-end.js';

interface Upstream {
  readonly members: Set<BoundedQueue<SubgraphEvent>>;
  readonly close: () => void;
}

/**
 * Client subscriptions that would send the subgraph the same subscription (same URL, operation,
 * variables and headers, so the same identity) share one subgraph socket (SUBSCRIPTION_DEDUPLICATE):
 * at 1,000 subscribers to one product the subgraph serves one subscription, not 1,000. What one
 * client does cannot reach the others: each has its own bounded queue (a slow client fails only
 * its own), leaving removes only itself, and the socket closes when the last one leaves. The
 * subgraph's failure or completion ends every sharer's subscription, as it would on sockets of
 * their own.
 */
export class SharedUpstreams {
  readonly #upstreams = new Map<string, Upstream>();

  /** Open subgraph sockets (for tests and the docs' claim that sharing happens). */
  get size(): number {
    return this.#upstreams.size;
  }

  subscribe(options: SubgraphSocketOptions): AsyncIterableIterator<SubgraphEvent> {
    const key = upstreamKey(options);
    const upstream = this.#upstreams.get(key) ?? this.#open(key, options);
    const member: BoundedQueue<SubgraphEvent> = new BoundedQueue(
      options.maxBufferedEvents,
      () => {
        upstream.members.delete(member);
        if (upstream.members.size > 0) return;
        if (this.#upstreams.get(key) === upstream) this.#upstreams.delete(key);
        upstream.close();
      },
      queueOptions(options),
    );
    upstream.members.add(member);
    return member;
  }

  #open(key: string, options: SubgraphSocketOptions): Upstream {
    const members = new Set<BoundedQueue<SubgraphEvent>>();
    const overflow = () => SubscriptionEnd.slowConsumer(options.maxBufferedEvents);
    const finish = (each: (member: BoundedQueue<SubgraphEvent>) => void) => {
      if (this.#upstreams.get(key) === upstream) this.#upstreams.delete(key);
      for (const member of [...members]) each(member);
    };
    const close = openSubgraphSocket(options, {
      next: (event) => {
        for (const member of [...members]) member.push(event, overflow);
      },
      error: (end) => finish((member) => member.fail(end)),
      complete: () => finish((member) => member.end()),
    });
    const upstream: Upstream = { members, close };
    this.#upstreams.set(key, upstream);
    return upstream;
  }
}

/** What makes two subgraph subscriptions the same one: as for in-flight fetches, every header but the per-request ones. */
function upstreamKey(options: SubgraphSocketOptions): string {
  const headers = Object.entries(options.headers)
    .filter(([name]) => !PER_REQUEST_HEADERS.has(name.toLowerCase()))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([options.url, options.operationName ?? '', options.query, options.variables, headers]);
}
