/**
 * Tiny seeded PRNG (mulberry32). Every subgraph generates its data from this in its
 * own process, so the data must not depend on Math.random, time, or load order.
 */
export type Random = () => number;

/** Returns a generator of floats in [0, 1) fully determined by `seed`. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One independent stream per generator (seed + label), so adding a draw to one
 * subgraph's generator never shifts the data of another.
 */
export function createRandom(seed: number, label: string): Random {
  let hash = 2166136261; // FNV-1a over the label
  for (let i = 0; i < label.length; i++) {
    hash = Math.imul(hash ^ label.charCodeAt(i), 16777619);
  }
  return mulberry32((seed ^ hash) >>> 0);
}

/** Integer in [min, max], both inclusive. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError('pick() needs a non-empty list');
  return item;
}
