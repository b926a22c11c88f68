import type { FormattedExecutionResult } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { BoundedQueue } from '../../src/subscriptions/bounded-queue.js';
import { LiveSubscription } from '../../src/subscriptions/live-subscription.js';
import type { SubgraphEvent } from '../../src/subscriptions/subgraph-socket.js';
import { SubscriptionRegistry } from '../../src/subscriptions/subscription-registry.js';

/** What the subscription executor does on admission: a live subscription whose end releases its slot. */
function subscribe(registry: SubscriptionRegistry, client: string) {
  const slot = registry.admit(client);
  if (!slot) return undefined;
  const released = vi.fn();
  const queue = new BoundedQueue<SubgraphEvent>(8, released);
  const live = new LiveSubscription(queue, async (event) => ({ data: event.data ?? null }), slot.release);
  slot.add(live);
  return { live, queue, released, stream: live.events() };
}

async function readAll(stream: AsyncIterator<FormattedExecutionResult>): Promise<FormattedExecutionResult[]> {
  const results: FormattedExecutionResult[] = [];
  for (;;) {
    const step = await stream.next();
    if (step.done) return results;
    results.push(step.value);
  }
}

describe('SubscriptionRegistry: the per-client cap', () => {
  it('admits up to the maximum for one client, then refuses it', () => {
    const registry = new SubscriptionRegistry(2);
    expect(registry.admit('sub:alice')).toBeDefined();
    expect(registry.admit('sub:alice')).toBeDefined();
    expect(registry.admit('sub:alice')).toBeUndefined();
  });

  it("one client's cap does not affect another client", () => {
    const registry = new SubscriptionRegistry(1);
    expect(registry.admit('sub:alice')).toBeDefined();
    expect(registry.admit('sub:alice')).toBeUndefined();
    expect(registry.admit('sub:bob')).toBeDefined();
    expect(registry.admit('api-key:mobile')).toBeDefined();
    expect(registry.admit('ip:10.0.0.1')).toBeDefined();
    expect(registry.admit('sub:bob')).toBeUndefined();
  });

  it('a released slot can be taken again; releasing twice frees only one', () => {
    const registry = new SubscriptionRegistry(2);
    const first = registry.admit('ip:10.0.0.1');
    const second = registry.admit('ip:10.0.0.1');
    expect(registry.admit('ip:10.0.0.1')).toBeUndefined();
    first?.release();
    first?.release();
    expect(registry.admit('ip:10.0.0.1')).toBeDefined();
    expect(registry.admit('ip:10.0.0.1')).toBeUndefined();
    expect(second).toBeDefined();
  });

  it('counts live subscriptions; the end of one (its stream returned) frees its slot', async () => {
    const registry = new SubscriptionRegistry(1);
    const alice = subscribe(registry, 'sub:alice');
    subscribe(registry, 'sub:bob');
    expect(registry.size).toBe(2);
    expect(subscribe(registry, 'sub:alice')).toBeUndefined();

    await alice?.stream.return?.();
    expect(registry.size).toBe(1);
    expect(subscribe(registry, 'sub:alice')).toBeDefined();
    expect(registry.size).toBe(2);
  });
});

describe('SubscriptionRegistry: ending them all', () => {
  it('completeAll() (drain): every live subscription completes with no error event, and the registry is closed', async () => {
    const registry = new SubscriptionRegistry(5);
    const subscriptions = ['sub:a', 'sub:a', 'api-key:b', 'ip:c'].map((client) => subscribe(registry, client));
    const first = subscriptions[0];
    first?.queue.push({ data: { n: 1 } }, () => new Error('full'));
    expect(registry.closed).toBe(false);

    registry.completeAll();
    expect(registry.closed).toBe(true);
    for (const subscription of subscriptions) expect(subscription?.released).toHaveBeenCalledTimes(1);

    const streams = await Promise.all(subscriptions.map((subscription) => readAll(subscription?.stream as never)));
    // Drain drops what was queued and says nothing: the clients reconnect elsewhere.
    expect(streams).toEqual([[], [], [], []]);
    expect(registry.size).toBe(0);
  });

  it('endAllForReload(): each subscription ends with a SUBSCRIPTION_SCHEMA_RELOAD event, then done; new ones are still admitted', async () => {
    const registry = new SubscriptionRegistry(5);
    const subscriptions = ['sub:a', 'ip:b'].map((client) => subscribe(registry, client));

    registry.endAllForReload();
    expect(registry.closed).toBe(false);
    for (const subscription of subscriptions) {
      const results = await readAll(subscription?.stream as never);
      expect(results).toEqual([
        {
          errors: [
            {
              message: 'The gateway loaded a new supergraph; subscribe again.',
              extensions: { code: 'SUBSCRIPTION_SCHEMA_RELOAD' },
            },
          ],
        },
      ]);
      expect(subscription?.released).toHaveBeenCalledTimes(1);
    }
    expect(registry.size).toBe(0);
    expect(subscribe(registry, 'sub:a')).toBeDefined();
  });

  it('a subscription admitted but never added is not ended by completeAll(), and its release still frees the slot', () => {
    const registry = new SubscriptionRegistry(1);
    const slot = registry.admit('sub:a');
    registry.completeAll();
    expect(registry.size).toBe(0);
    expect(registry.admit('sub:a')).toBeUndefined();
    slot?.release();
    expect(registry.admit('sub:a')).toBeDefined();
  });
});
