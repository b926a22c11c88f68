import type { FormattedExecutionResult } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { ClientErrorCode } from '../../src/error-registry.js';
import { BoundedQueue } from '../../src/subscriptions/bounded-queue.js';
import { LiveSubscription, type ResolveEvent } from '../../src/subscriptions/live-subscription.js';
import type { SubgraphEvent } from '../../src/subscriptions/subgraph-socket.js';
import { SubscriptionEnd } from '../../src/subscriptions/subscription-end.js';

const event = (n: number): SubgraphEvent => ({ data: { n } });

/** A source as subgraph-socket.ts makes one (a BoundedQueue), recording whether it was released. */
function source(capacity = 16) {
  const released = vi.fn();
  const queue = new BoundedQueue<SubgraphEvent>(capacity, released);
  const push = (item: SubgraphEvent) => queue.push(item, () => SubscriptionEnd.slowConsumer(capacity));
  return { queue, released, push };
}

/** Resolves an event to `{ data: { n, resolved: true } }`. */
const shape: ResolveEvent = async (e) => ({ data: { ...e.data, resolved: true } });

/** Everything the client's stream gives until it ends, and what it threw, if anything. */
async function readAll(stream: AsyncIterator<FormattedExecutionResult>) {
  const results: FormattedExecutionResult[] = [];
  try {
    for (;;) {
      const step = await stream.next();
      if (step.done) return { results };
      results.push(step.value);
    }
  } catch (error) {
    return { results, error };
  }
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('LiveSubscription', () => {
  it("gives the client's events in the order the subgraph sent them, then completes when the subgraph does", async () => {
    const { queue, released, push } = source();
    const onEnd = vi.fn();
    const live = new LiveSubscription(queue, shape, onEnd);
    for (const n of [1, 2, 3]) push(event(n));
    queue.end();

    expect(await readAll(live.events())).toEqual({
      results: [1, 2, 3].map((n) => ({ data: { n, resolved: true } })),
    });
    expect(released).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it("resolves one event at a time: the next starts only after the previous one's fetches finished", async () => {
    const { queue, push } = source();
    const first = deferred<FormattedExecutionResult>();
    const resolve = vi.fn((e: SubgraphEvent) => (e.data?.n === 1 ? first.promise : shape(e)));
    const stream = new LiveSubscription(queue, resolve, () => {}).events();
    push(event(1));
    push(event(2));

    const firstRead = stream.next();
    await vi.waitFor(() => expect(resolve).toHaveBeenCalledTimes(1));
    // Let the microtask queue run dry: the second event must still be waiting.
    await new Promise((r) => setImmediate(r));
    expect(resolve).toHaveBeenCalledTimes(1);

    first.resolve({ data: { n: 1, late: true } });
    expect(await firstRead).toEqual({ value: { data: { n: 1, late: true } }, done: false });
    expect(await stream.next()).toEqual({ value: { data: { n: 2, resolved: true } }, done: false });
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  it('one event more than the buffer holds: the buffered events, then a last event with SUBSCRIPTION_SLOW_CONSUMER, then done; the source is released', async () => {
    const { queue, released, push } = source(2);
    const onEnd = vi.fn();
    const live = new LiveSubscription(queue, shape, onEnd);
    expect(push(event(1))).toBe(true);
    expect(push(event(2))).toBe(true);
    expect(released).not.toHaveBeenCalled();
    expect(push(event(3))).toBe(false);
    // Released at the overflow, before the client reads anything.
    expect(released).toHaveBeenCalledTimes(1);

    const { results, error } = await readAll(live.events());
    expect(error).toBeUndefined();
    expect(results).toHaveLength(3);
    expect(results.slice(0, 2)).toEqual([{ data: { n: 1, resolved: true } }, { data: { n: 2, resolved: true } }]);
    expect(results[2]).toEqual({ errors: SubscriptionEnd.slowConsumer(2).errors });
    expect(results[2]?.errors?.[0]?.extensions?.code).toBe('SUBSCRIPTION_SLOW_CONSUMER');
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it("a source that fails with a SubscriptionEnd: that end's errors as the last event, then done", async () => {
    const { queue, push } = source();
    const onEnd = vi.fn();
    const live = new LiveSubscription(queue, shape, onEnd);
    push(event(1));
    queue.fail(SubscriptionEnd.fromSubgraph('reviews', { code: 1011 }));

    const { results, error } = await readAll(live.events());
    expect(error).toBeUndefined();
    expect(results).toEqual([
      { data: { n: 1, resolved: true } },
      {
        errors: [
          {
            message: 'The subgraph "reviews" ended the subscription (WebSocket close 1011). Subscribe again.',
            extensions: {
              code: 'WEBSOCKET_CLOSE_ERROR',
              legacyCode: 'SUBSCRIPTION_SOURCE_CLOSED',
              serviceName: 'reviews',
            },
          },
        ],
      },
    ]);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('a source that fails with anything else: the stream throws it, and still ends (slot released)', async () => {
    const { queue } = source();
    const onEnd = vi.fn();
    const live = new LiveSubscription(queue, shape, onEnd);
    const bug = new TypeError('a bug');
    queue.fail(bug);
    expect(await readAll(live.events())).toEqual({ results: [], error: bug });
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('return() before the first read releases the source and ends the subscription', async () => {
    const { queue, released } = source();
    const onEnd = vi.fn();
    const stream = new LiveSubscription(queue, shape, onEnd).events();

    expect(await stream.return?.()).toEqual({ value: undefined, done: true });
    expect(released).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    // Idempotent: a second return() releases nothing more.
    await stream.return?.();
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('return() while a read waits for the subgraph: the read is done, the source released, onEnd once', async () => {
    const { queue, released, push } = source();
    const onEnd = vi.fn();
    const stream = new LiveSubscription(queue, shape, onEnd).events();
    push(event(1));
    expect((await stream.next()).value).toEqual({ data: { n: 1, resolved: true } });

    const waiting = stream.next();
    await stream.return?.();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(released).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledTimes(1);
    // Events the subgraph sends after are dropped.
    push(event(2));
    expect(queue.size).toBe(0);
  });

  it('end() without a reason (drain): a waiting read completes cleanly, no error event', async () => {
    const { queue, released } = source();
    const onEnd = vi.fn();
    const live = new LiveSubscription(queue, shape, onEnd);
    const stream = live.events();
    const waiting = stream.next();
    live.end();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(released).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it("end(reason) while an event is being resolved: that event, then the reason's errors, then done", async () => {
    const { queue, push } = source();
    const pending = deferred<FormattedExecutionResult>();
    const resolve = vi.fn(() => pending.promise);
    const live = new LiveSubscription(queue, resolve, () => {});
    const stream = live.events();
    push(event(1));
    push(event(2));
    const read = stream.next();
    await vi.waitFor(() => expect(resolve).toHaveBeenCalledTimes(1));

    const reload = SubscriptionEnd.of(ClientErrorCode.SUBSCRIPTION_SCHEMA_RELOAD, 'reload');
    live.end(reload);
    pending.resolve({ data: { n: 1 } });

    expect(await read).toEqual({ value: { data: { n: 1 } }, done: false });
    expect(await readAll(stream)).toEqual({ results: [{ errors: reload.errors }] });
    // The queued second event was dropped, not resolved.
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('end(reason) before the first read: only the error event, then done', async () => {
    const { queue, released, push } = source();
    const onEnd = vi.fn();
    const live = new LiveSubscription(queue, shape, onEnd);
    push(event(1));
    const reload = SubscriptionEnd.of(ClientErrorCode.SUBSCRIPTION_SCHEMA_RELOAD, 'reload');
    live.end(reload);
    expect(released).toHaveBeenCalledTimes(1);

    expect(await readAll(live.events())).toEqual({ results: [{ errors: reload.errors }] });
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('the first end() wins: a later end(reason) neither adds nor replaces the error', async () => {
    const { queue } = source();
    const live = new LiveSubscription(queue, shape, () => {});
    live.end();
    live.end(SubscriptionEnd.of(ClientErrorCode.SUBSCRIPTION_SCHEMA_RELOAD, 'reload'));
    expect(await readAll(live.events())).toEqual({ results: [] });
  });

  it('after end(), a source failure that raced it is not shown: the end decides', async () => {
    const { queue } = source();
    const live = new LiveSubscription(queue, shape, () => {});
    const stream = live.events();
    queue.fail(SubscriptionEnd.fromSubgraph('reviews', { code: 1006 }));
    const reload = SubscriptionEnd.of(ClientErrorCode.SUBSCRIPTION_SCHEMA_RELOAD, 'reload');
    live.end(reload);
    expect(await readAll(stream)).toEqual({ results: [{ errors: reload.errors }] });
  });
});
