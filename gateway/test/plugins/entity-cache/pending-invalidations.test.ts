import { describe, expect, it } from 'vitest';
import { invalidationRoute } from '../../../src/plugins/entity-cache/admin-route.js';
import {
  type InvalidationOutcome,
  PendingInvalidations,
} from '../../../src/plugins/entity-cache/pending-invalidations.js';
import type { EntityStore, InvalidationTarget, StoreEntry } from '../../../src/plugins/entity-cache/store.js';

/**
 * An invalidation the store cannot take is kept and retried on a schedule, driven here by an
 * injected clock and timer (no test waits): applied once the store is back, given up once
 * everything it named has expired, merged when the queue is full. Meanwhile nothing is served.
 * (Against a real Redis cut off and restarted: tests/adversarial/lost-invalidation.test.ts.)
 */
const MAX_TTL_MS = 60_000;

/** A store that fails every invalidation while `down`, and records what it was asked. */
function flakyStore() {
  const state = { down: false, invalidated: [] as InvalidationTarget[], written: [] as StoreEntry[] };
  const store: EntityStore = {
    get: (keys) => keys.map(() => 'kept'),
    set: (entries) => {
      state.written.push(...entries);
    },
    invalidate: async (target) => {
      if (state.down) throw new Error('connect ECONNREFUSED');
      state.invalidated.push(target);
      return 2;
    },
    close: async () => undefined,
  };
  return { state, store };
}

/** The injected clock and timer: `fire()` runs the one scheduled retry after moving the clock to it. */
function fakeTime() {
  let now = 0;
  let timer: { run: () => void; at: number } | undefined;
  const delays: number[] = [];
  return {
    now: () => now,
    schedule: (run: () => void, ms: number) => {
      delays.push(ms);
      const scheduled = { run, at: now + ms };
      timer = scheduled;
      return () => {
        if (timer === scheduled) timer = undefined;
      };
    },
    delays,
    advance: (ms: number) => {
      now += ms;
    },
    scheduled: () => timer !== undefined,
    /** Runs the scheduled retry and lets its store calls settle. */
    async fire() {
      const due = timer;
      if (!due) throw new Error('no retry scheduled');
      timer = undefined;
      now = Math.max(now, due.at);
      due.run();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
  };
}

function setup(maxPending?: number) {
  const { state, store } = flakyStore();
  const time = fakeTime();
  const outcomes: { outcome: InvalidationOutcome; pending: number }[] = [];
  const pending = new PendingInvalidations(store, {
    maxTtlMs: MAX_TTL_MS,
    now: time.now,
    schedule: time.schedule,
    ...(maxPending !== undefined && { maxPending }),
    onOutcome: (outcome, _target, _dropped, waiting) => outcomes.push({ outcome, pending: waiting }),
  });
  return { state, time, outcomes, pending };
}

const product = (id: string): InvalidationTarget => ({ subgraph: 'reviews', type: 'Product', entity: id });
const entry: StoreEntry = { key: 'k', value: '{}', ttlMs: 1000, space: 's', subgraph: 'reviews', type: 'Product' };

describe('pending invalidations', () => {
  it('retries a failed invalidation with a growing delay, serving nothing until the store takes it', async () => {
    const { state, time, outcomes, pending } = setup();
    expect(await pending.invalidate(product('1'))).toBe(2);
    expect(outcomes).toEqual([{ outcome: 'applied', pending: 0 }]);

    state.down = true;
    expect(await pending.apply(product('2'))).toEqual({ dropped: 0, queued: true });
    expect(pending.pending).toBe(1);
    expect(pending.get(['k'])).toBeUndefined();
    pending.set([entry]);
    expect(state.written).toEqual([]);

    for (let round = 0; round < 6; round++) await time.fire();
    expect(time.delays).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
    expect(pending.pending).toBe(1);

    state.down = false;
    await time.fire();
    expect(state.invalidated).toEqual([product('1'), product('2')]);
    expect(pending.pending).toBe(0);
    expect(time.scheduled()).toBe(false);
    expect(outcomes.map(({ outcome }) => outcome)).toEqual(['applied', 'queued', 'retried']);
    expect(outcomes.at(-1)?.pending).toBe(0);
    expect(pending.get(['k'])).toEqual(['kept']);
    pending.set([entry]);
    expect(state.written).toEqual([entry]);
  });

  it('an invalidation the store takes again runs the waiting ones at once, without waiting for the timer', async () => {
    const { state, time, outcomes, pending } = setup();
    state.down = true;
    await pending.invalidate(product('1'));
    await time.fire();
    expect(time.scheduled()).toBe(true);
    state.down = false;
    await pending.invalidate(product('2'));
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(state.invalidated).toEqual([product('2'), product('1')]);
    expect(pending.pending).toBe(0);
    expect(time.scheduled()).toBe(false);
    expect(outcomes.map(({ outcome }) => outcome)).toEqual(['queued', 'applied', 'retried']);
  });

  it('gives an invalidation up once everything it named has expired, and serves again', async () => {
    const { state, time, outcomes, pending } = setup();
    state.down = true;
    await pending.invalidate(product('1'));
    time.advance(MAX_TTL_MS - 1);
    await time.fire();
    expect(pending.pending).toBe(1);
    time.advance(1);
    await time.fire();
    expect(pending.pending).toBe(0);
    expect(outcomes.map(({ outcome }) => outcome)).toEqual(['queued', 'expired']);
    expect(pending.get(['k'])).toEqual(['kept']);
    expect(state.invalidated).toEqual([]);
  });

  it('asked again while its retry ran: kept for one more round, so entries written meanwhile go too', async () => {
    const time = fakeTime();
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    // 1: fails (queued); 2: the retry, slow; 3: asked again meanwhile, fails; 4: the next round.
    let calls = 0;
    const pending = new PendingInvalidations(
      {
        get: () => undefined,
        set: () => undefined,
        invalidate: async () => {
          calls++;
          if (calls === 1 || calls === 3) throw new Error('connect ECONNREFUSED');
          if (calls === 2) await slow;
          return 1;
        },
        close: async () => undefined,
      },
      { maxTtlMs: MAX_TTL_MS, now: time.now, schedule: time.schedule },
    );
    await pending.invalidate(product('9'));
    const retrying = time.fire();
    time.advance(5);
    await pending.invalidate(product('9'));
    release();
    await retrying;
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(pending.pending).toBe(1);
    await time.fire();
    expect(pending.pending).toBe(0);
    expect(calls).toBe(4);
  });

  it('full: merges the waiting targets into one per subgraph; past that, drops the new one and stays off for a TTL', async () => {
    const { state, time, outcomes, pending } = setup(2);
    state.down = true;
    await pending.invalidate(product('1'));
    await pending.invalidate(product('2'));
    await pending.invalidate(product('3'));
    expect(pending.pending).toBe(1);
    expect(outcomes.map(({ outcome }) => outcome)).toEqual(['queued', 'queued', 'merged', 'merged', 'queued']);
    // Covered by the whole-subgraph invalidation already waiting.
    await pending.invalidate({ subgraph: 'reviews', type: 'User', entity: 'u' });
    expect(pending.pending).toBe(1);
    await pending.invalidate({ subgraph: 'products' });
    expect(pending.pending).toBe(2);
    await pending.invalidate({ subgraph: 'users' });
    expect(pending.pending).toBe(2);
    expect(outcomes.at(-1)).toEqual({ outcome: 'dropped', pending: 2 });

    state.down = false;
    await time.fire();
    expect(state.invalidated).toEqual([{ subgraph: 'reviews' }, { subgraph: 'products' }]);
    expect(pending.pending).toBe(0);
    // The dropped one may still name live entries: nothing is served until they have expired.
    expect(pending.get(['k'])).toBeUndefined();
    time.advance(MAX_TTL_MS);
    expect(pending.get(['k'])).toEqual(['kept']);
  });

  it('the operator endpoint answers 202 with what is pending when the store could not take it', async () => {
    const { state, pending } = setup();
    const route = invalidationRoute('token', (target) => pending.apply(target));
    const ask = () =>
      route.handle({
        headers: { authorization: 'Bearer token' },
        body: JSON.stringify([{ kind: 'entity', subgraph: 'reviews', type: 'Product', key: { id: '1' } }]),
      });
    expect(await ask()).toEqual({ status: 200, body: { invalidated: 2 } });
    state.down = true;
    expect(await ask()).toEqual({ status: 202, body: { invalidated: 0, pending: 1 } });
  });
});
