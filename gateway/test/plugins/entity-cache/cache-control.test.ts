import { describe, expect, it } from 'vitest';
import { cachePolicy } from '../../../src/plugins/entity-cache/cache-control.js';
import { invalidationsIn } from '../../../src/plugins/entity-cache/invalidation.js';

describe('cachePolicy (a subgraph answer’s Cache-Control)', () => {
  it.each([
    [undefined, { maxAgeSec: undefined, private: false, noStore: false }],
    ['public, max-age=60', { maxAgeSec: 60, private: false, noStore: false }],
    ['max-age=60, s-maxage=5', { maxAgeSec: 5, private: false, noStore: false }],
    ['private, max-age=30, s-maxage=600', { maxAgeSec: 30, private: true, noStore: false }],
    ['no-store', { maxAgeSec: undefined, private: false, noStore: true }],
    ['no-cache, max-age=60', { maxAgeSec: 60, private: false, noStore: true }],
    ['max-age=-1', { maxAgeSec: undefined, private: false, noStore: false }],
    ['max-age="12"', { maxAgeSec: 12, private: false, noStore: false }],
    [['public', 'PRIVATE', 'Max-Age=9'], { maxAgeSec: 9, private: true, noStore: false }],
  ])('%j', (header, policy) => {
    expect(cachePolicy(header)).toEqual(policy);
  });
});

describe('invalidationsIn (extensions.invalidation)', () => {
  it("reads the Router's three kinds, for the answering subgraph only, and skips malformed items", () => {
    const targets = invalidationsIn(
      {
        invalidation: [
          { kind: 'subgraph', subgraph: 'reviews' },
          { kind: 'type', subgraph: 'reviews', type: 'Product' },
          { kind: 'entity', subgraph: 'reviews', type: 'Product', key: { id: '1' } },
          { kind: 'subgraph', subgraph: 'users' },
          { kind: 'type', subgraph: 'reviews', type: 'Not a name' },
          { kind: 'entity', subgraph: 'reviews', type: 'Product', key: 'id=1' },
          'garbage',
        ],
      },
      'reviews',
    );
    expect(targets).toEqual([
      { subgraph: 'reviews' },
      { subgraph: 'reviews', type: 'Product' },
      { subgraph: 'reviews', type: 'Product', entity: expect.any(String) },
    ]);
    expect(invalidationsIn({ invalidation: 'all' }, 'reviews')).toEqual([]);
    expect(invalidationsIn(undefined, 'reviews')).toEqual([]);
  });
});
