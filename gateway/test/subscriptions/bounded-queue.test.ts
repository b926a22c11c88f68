import { describe, expect, it, vi } from 'vitest';
import { BoundedQueue } from '../../src/subscriptions/bounded-queue.js';

const overflowError = new Error('overflow');
const overflow = () => overflowError;

/** Every result the queue gives until it ends, and the error it ended with, if any. */
async function drain<T>(queue: BoundedQueue<T>): Promise<{ items: T[]; error?: unknown }> {
  const items: T[] = [];
  try {
    for (;;) {
      const step = await queue.next();
      if (step.done) return { items };
      items.push(step.value);
    }
  } catch (error) {
    return { items, error };
  }
}

describe('BoundedQueue', () => {
  it('gives items in the order they were pushed, then done once ended', async () => {
    const queue = new BoundedQueue<number>(10, () => {});
    for (const n of [1, 2, 3]) expect(queue.push(n, overflow)).toBe(true);
    expect(queue.size).toBe(3);
    queue.end();

    expect(await drain(queue)).toEqual({ items: [1, 2, 3] });
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('hands an item straight to a waiting read, outside the capacity', async () => {
    const queue = new BoundedQueue<string>(1, () => {});
    const read = queue.next();
    expect(queue.push('a', overflow)).toBe(true);
    expect(await read).toEqual({ value: 'a', done: false });
    expect(queue.size).toBe(0);
    // The direct hand-off did not use the one place: it still takes one item.
    expect(queue.push('b', overflow)).toBe(true);
    expect(queue.size).toBe(1);
  });

  it('fails instead of growing: the push past capacity returns false and the reader gets the queued items, then the error', async () => {
    const onClose = vi.fn();
    const makeError = vi.fn(overflow);
    const queue = new BoundedQueue<number>(3, onClose);
    for (const n of [1, 2, 3]) expect(queue.push(n, makeError)).toBe(true);
    expect(makeError).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();

    expect(queue.push(4, makeError)).toBe(false);
    expect(makeError).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(queue.size).toBe(3);
    // Later pushes are dropped: the queue has ended.
    expect(queue.push(5, makeError)).toBe(true);
    expect(queue.size).toBe(3);

    expect(await drain(queue)).toEqual({ items: [1, 2, 3], error: overflowError });
    expect(await queue.next()).toEqual({ value: undefined, done: true });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('rejects a waiting read when it fails, once; the read after is done', async () => {
    const queue = new BoundedQueue<number>(2, () => {});
    const read = queue.next();
    const error = new Error('subgraph closed');
    queue.fail(error);
    await expect(read).rejects.toBe(error);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('rejects the first read after it fails with nothing queued, once', async () => {
    const queue = new BoundedQueue<number>(2, () => {});
    const error = new Error('subgraph closed');
    queue.fail(error);
    await expect(queue.next()).rejects.toBe(error);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('resolves a waiting read with done when it ends', async () => {
    const onClose = vi.fn();
    const queue = new BoundedQueue<number>(2, onClose);
    const read = queue.next();
    queue.end();
    expect(await read).toEqual({ value: undefined, done: true });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('return() drops what is queued and any failure, closes once, and reads are done after', async () => {
    const onClose = vi.fn();
    const queue = new BoundedQueue<number>(2, onClose);
    queue.push(1, overflow);
    queue.push(2, overflow);
    queue.push(3, overflow); // fails the queue (overflow)
    expect(onClose).toHaveBeenCalledTimes(1);

    expect(await queue.return()).toEqual({ value: undefined, done: true });
    expect(queue.size).toBe(0);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('return() before any read closes the queue (the producer is released)', async () => {
    const onClose = vi.fn();
    const queue = new BoundedQueue<number>(2, onClose);
    await queue.return();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(queue.push(1, overflow)).toBe(true);
    expect(queue.size).toBe(0);
  });

  it('runs onClose once whatever ends it: end, fail and return together', async () => {
    const onClose = vi.fn();
    const queue = new BoundedQueue<number>(2, onClose);
    queue.end();
    queue.fail(new Error('late'));
    queue.end();
    await queue.return();
    expect(onClose).toHaveBeenCalledTimes(1);
    // fail() after end() does not turn a clean end into an error.
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('is its own async iterator (for await)', async () => {
    const queue = new BoundedQueue<string>(5, () => {});
    queue.push('x', overflow);
    queue.push('y', overflow);
    queue.end();
    const seen: string[] = [];
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual(['x', 'y']);
  });

  it('with dropOldest, a full queue drops its oldest item for the new one and stays open (SUBSCRIPTION_SLOW_CLIENT=drop-oldest)', async () => {
    const onClose = vi.fn();
    const queue = new BoundedQueue<number>(3, onClose, { dropOldest: true });
    const failing = vi.fn(() => new Error('never'));
    for (let n = 1; n <= 7; n++) expect(queue.push(n, failing)).toBe(true);
    expect(failing).not.toHaveBeenCalled();
    expect(queue.size).toBe(3);
    expect(queue.dropped).toBe(4);
    queue.end();
    const seen: number[] = [];
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual([5, 6, 7]);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
