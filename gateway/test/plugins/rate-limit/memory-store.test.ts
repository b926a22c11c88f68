import { afterEach, describe, expect, it, vi } from 'vitest';
import { PluginOptionsError } from '../../../src/errors.js';
import { MemoryStore, type MemoryStoreOptions } from '../../../src/plugins/rate-limit/memory-store.js';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('MemoryStore', () => {
  const stores: MemoryStore[] = [];
  const create = (options: MemoryStoreOptions = {}) => {
    const store = new MemoryStore(options);
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('adds each cost to the window and reports the time left in it', async () => {
    const clock = manualClock();
    const store = create({ now: clock.now });
    expect(await store.hit('ip:a', 1, 1_000)).toEqual({ count: 1, resetInMs: 1_000 });
    clock.advance(300);
    expect(await store.hit('ip:a', 3, 1_000)).toEqual({ count: 4, resetInMs: 700 });
    clock.advance(699);
    expect(await store.hit('ip:a', 1, 1_000)).toEqual({ count: 5, resetInMs: 1 });
  });

  it('starts a new window from 0 once the window has ended', async () => {
    const clock = manualClock();
    const store = create({ now: clock.now });
    await store.hit('ip:a', 5, 1_000);
    clock.advance(1_000);
    expect(await store.hit('ip:a', 2, 1_000)).toEqual({ count: 2, resetInMs: 1_000 });
    clock.advance(5_000);
    expect(await store.hit('ip:a', 1, 1_000)).toEqual({ count: 1, resetInMs: 1_000 });
  });

  it('reads Date.now when given no clock', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = create();
      await store.hit('ip:a', 1, 50);
      vi.advanceTimersByTime(49);
      const second = await store.hit('ip:a', 1, 50);
      expect(second).toEqual({ count: 2, resetInMs: 1 });
      vi.advanceTimersByTime(1);
      expect((await store.hit('ip:a', 1, 50)).count).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps one count per key', async () => {
    const store = create();
    await store.hit('ip:a', 1, 60_000);
    await store.hit('ip:a', 1, 60_000);
    expect((await store.hit('ip:b', 1, 60_000)).count).toBe(1);
    expect((await store.hit('sub:a', 1, 60_000)).count).toBe(1);
    expect((await store.hit('ip:a', 1, 60_000)).count).toBe(3);
  });

  it('counts concurrent hits exactly', async () => {
    const store = create();
    const hits = await Promise.all(Array.from({ length: 100 }, () => store.hit('ip:a', 1, 60_000)));
    expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('never holds more than maxKeys keys, dropping the window that opened first', async () => {
    const clock = manualClock();
    const store = create({ maxKeys: 3, now: clock.now });
    for (const key of ['a', 'b', 'c']) {
      await store.hit(key, 1, 60_000);
      clock.advance(10);
    }
    await store.hit('b', 1, 60_000);
    await store.hit('d', 1, 60_000);
    expect(store.size).toBe(3);
    // `a` was dropped (it starts again from 0); `b` and `c` kept their counts.
    expect((await store.hit('b', 1, 60_000)).count).toBe(3);
    expect((await store.hit('c', 1, 60_000)).count).toBe(2);
    for (let i = 0; i < 1_000; i++) await store.hit(`spray:${i}`, 1, 60_000);
    expect(store.size).toBe(3);
  });

  it('sweeps expired windows on its timer', async () => {
    const clock = manualClock();
    const store = create({ sweepIntervalMs: 20, now: clock.now });
    await store.hit('short', 1, 100);
    await store.hit('long', 1, 60_000);
    expect(store.size).toBe(2);
    clock.advance(100);
    await expect.poll(() => store.size, { timeout: 5_000, interval: 20 }).toBe(1);
    expect((await store.hit('long', 1, 60_000)).count).toBe(2);
  });

  it('forgets everything on close', async () => {
    const store = create();
    await store.hit('ip:a', 1, 60_000);
    await store.close();
    expect(store.size).toBe(0);
  });

  it('names every bad option', () => {
    const error = catchError(
      () => new MemoryStore({ maxKeys: 0, sweepIntervalMs: 1.5, now: 5, max: 3 } as unknown as MemoryStoreOptions),
    );
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect((error as PluginOptionsError).issues.map((issue) => issue.field).sort()).toEqual([
      'MemoryStore.max',
      'MemoryStore.maxKeys',
      'MemoryStore.now',
      'MemoryStore.sweepIntervalMs',
    ]);
    expect((error as PluginOptionsError).code).toBe('ERR_GATEWAY_PLUGIN_OPTIONS_INVALID');
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
