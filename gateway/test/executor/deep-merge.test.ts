import { deepMerge as apolloDeepMerge } from '@apollo/gateway/dist/utilities/deepMerge.js';
import { describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/executor/deep-merge.js';

/** Each case merged by both from fresh copies: the targets must end up the same, key order included. */
const cases: { name: string; target: () => unknown; source: () => unknown }[] = [
  { name: 'disjoint keys', target: () => ({ a: 1 }), source: () => ({ b: 2, c: 'x' }) },
  { name: 'nested objects', target: () => ({ u: { id: '1' } }), source: () => ({ u: { name: 'n', id: '1' } }) },
  {
    name: 'lists of one length, merged element-wise',
    target: () => ({ l: [{ id: 1 }, 2, null] }),
    source: () => ({ l: [{ n: 'a' }, { n: 'b' }, 3] }),
  },
  { name: 'lists of other lengths, replaced', target: () => ({ l: [1, 2] }), source: () => ({ l: [3] }) },
  { name: 'undefined values skipped', target: () => ({ a: 1 }), source: () => ({ a: undefined, b: null }) },
  { name: 'null source', target: () => ({ a: 1 }), source: () => null },
  {
    name: 'inherited names become own properties',
    target: () => ({}),
    source: () => JSON.parse('{"toString":"t","constructor":{"x":1},"hasOwnProperty":2}'),
  },
  {
    name: 'a falsy target value is replaced',
    target: () => ({ a: 0, b: '' }),
    source: () => ({ a: { x: 1 }, b: [1] }),
  },
  { name: 'integer-like keys in their order', target: () => ({ z: 1 }), source: () => ({ b: 1, 2: 'two', 1: 'one' }) },
];

describe('deepMerge (executor/deep-merge.ts) against @apollo/gateway', () => {
  for (const { name, target, source } of cases) {
    it(name, () => {
      const ours = target();
      const theirs = target();
      expect(deepMerge(ours, source())).toBe(ours);
      apolloDeepMerge(theirs, source());
      expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
      // Own keys, in order (JSON alone would not tell an own `toString` from none).
      expect(Object.keys(ours as object)).toEqual(Object.keys(theirs as object));
    });
  }
});
