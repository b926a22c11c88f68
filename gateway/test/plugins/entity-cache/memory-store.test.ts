import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/plugins/entity-cache/memory-store.js';
import type { StoreEntry } from '../../../src/plugins/entity-cache/store.js';

const entry = (key: string, space: string, value = 'x'.repeat(40), ttlMs = 60_000): StoreEntry => ({
  key,
  value,
  ttlMs,
  space,
  subgraph: 'products',
  type: space,
});

describe('MemoryStore', () => {
  it('answers what it holds until its TTL runs out', () => {
    let now = 1_000;
    const store = new MemoryStore({ maxBytes: 100_000, maxSpaceBytes: 100_000, now: () => now });
    store.set([entry('a', 's', '{"v":1}', 500)]);
    expect(store.get(['a', 'b'])).toEqual(['{"v":1}', undefined]);
    now += 500;
    expect(store.get(['a'])).toEqual([undefined]);
    expect(store.bytes).toBe(0);
  });

  it('stays within its bytes, evicting the least recently read first', () => {
    const evicted: string[] = [];
    const store = new MemoryStore({
      maxBytes: 3 * 205,
      maxSpaceBytes: 3 * 205,
      onEvict: (_subgraph, type) => evicted.push(type),
    });
    store.set([entry('a', 's'), entry('b', 's'), entry('c', 's')]);
    store.get(['a']); // b is now the least recently read
    store.set([entry('d', 's')]);
    expect(store.get(['a', 'b', 'c', 'd']).map((value) => value !== undefined)).toEqual([true, false, true, true]);
    expect(evicted).toEqual(['s']);
    expect(store.bytes).toBeLessThanOrEqual(3 * 205);
  });

  it("a key space over its share evicts its own entries, never another space's", () => {
    const store = new MemoryStore({ maxBytes: 10 * 220, maxSpaceBytes: 3 * 220 });
    store.set([entry('victim-1', 'public:products:Product'), entry('victim-2', 'public:products:Product')]);
    // One client's identity writes many private answers: they push out only each other.
    for (let i = 0; i < 50; i++) store.set([entry(`flood-${i}`, 'private:attacker')]);
    expect(store.get(['victim-1', 'victim-2'])).toEqual([expect.any(String), expect.any(String)]);
    expect(store.get(['flood-49', 'flood-48', 'flood-0'])).toEqual([expect.any(String), expect.any(String), undefined]);
  });

  it('never keeps a value over the space share, and drops by subgraph, type or entity', async () => {
    const store = new MemoryStore({ maxBytes: 10_000, maxSpaceBytes: 1_000 });
    store.set([entry('huge', 's', 'x'.repeat(2_000))]);
    expect(store.get(['huge'])).toEqual([undefined]);
    store.set([
      { ...entry('ec:h:products:Product:E1:sel:v:p', 'p'), type: 'Product' },
      { ...entry('ec:h:products:Product:E2:sel:v:p', 'p'), type: 'Product' },
      { ...entry('ec:h:products:Query:root:sel:v:p', 'q'), type: 'Query' },
    ]);
    expect(await store.invalidate({ subgraph: 'products', type: 'Product', entity: 'E1' })).toBe(1);
    expect(await store.invalidate({ subgraph: 'reviews' })).toBe(0);
    expect(await store.invalidate({ subgraph: 'products', type: 'Product' })).toBe(1);
    expect(await store.invalidate({ subgraph: 'products' })).toBe(1);
    expect(store.bytes).toBe(0);
  });
});
