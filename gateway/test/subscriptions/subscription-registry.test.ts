import type { FormattedExecutionResult } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { BoundedQueue } from '../../src/subscriptions/bounded-queue.js';
import { LiveSubscription } from '../../src/subscriptions/live-subscription.js';
import type { SubgraphEvent } from '../../src/subscriptions/subgraph-socket.js';
import { SubscriptionRegistry, type SubscriptionSlot } from '../../src/subscriptions/subscription-registry.js';

/** What the subscription executor does on admission: a live subscription whose end releases its slot. */
function subscribe(registry: SubscriptionRegistry, client: string) {
  const slot = registry.admit(client);
  if (typeof slot === 'string') return undefined;
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
    expect(registry.admit('sub:alice')).toBeTypeOf('object');
    expect(registry.admit('sub:alice')).toBeTypeOf('object');
    expect(registry.admit('sub:alice')).toBe('client');
  });

  it("one client's cap does not affect another client", () => {
    const registry = new SubscriptionRegistry(1);
    expect(registry.admit('sub:alice')).toBeTypeOf('object');
    expect(registry.admit('sub:alice')).toBe('client');
    expect(registry.admit('sub:bob')).toBeTypeOf('object');
    expect(registry.admit('api-key:mobile')).toBeTypeOf('object');
    expect(registry.admit('ip:10.0.0.1')).toBeTypeOf('object');
    expect(registry.admit('sub:bob')).toBe('client');
  });

  it('a released slot can be taken again; releasing twice frees only one', () => {
    const registry = new SubscriptionRegistry(2);
    const first = registry.admit('ip:10.0.0.1');
    const second = registry.admit('ip:10.0.0.1');
    expect(registry.admit('ip:10.0.0.1')).toBe('client');
    (first as SubscriptionSlot).release();
    (first as SubscriptionSlot).release();
    expect(registry.admit('ip:10.0.0.1')).toBeTypeOf('object');
    expect(registry.admit('ip:10.0.0.1')).toBe('client');
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
    expect(registry.admit('sub:a')).toBe('client');
    (slot as SubscriptionSlot).release();
    expect(registry.admit('sub:a')).toBeTypeOf('object');
  });
});

describe('SubscriptionRegistry: the cap on all subscriptions together (SUBSCRIPTION_MAX_OPEN)', () => {
  it("refuses any client once the total is reached, whatever its own count; a released slot is anyone's", () => {
    const registry = new SubscriptionRegistry(10, 2);
    const alice = registry.admit('sub:alice');
    expect(registry.admit('ip:10.0.0.1')).toBeTypeOf('object');
    expect(registry.admit('sub:bob')).toBe('total');
    expect(registry.admit('sub:alice')).toBe('total');
    (alice as SubscriptionSlot).release();
    (alice as SubscriptionSlot).release();
    expect(registry.admit('sub:bob')).toBeTypeOf('object');
    expect(registry.admit('sub:carol')).toBe('total');
  });

  it('a refusal for the total takes no slot of the client', () => {
    const registry = new SubscriptionRegistry(1, 1);
    const held = registry.admit('sub:alice');
    expect(registry.admit('sub:bob')).toBe('total');
    (held as SubscriptionSlot).release();
    expect(registry.admit('sub:bob')).toBeTypeOf('object');
  });
});
