import { describe, expect, it } from 'vitest';
import { incrementalFormat, toV02 } from '../../src/executor/incremental-format.js';
import {
  batchOf,
  crossesStream,
  moveIntoWindow,
  occurrencesOf,
  rangeOf,
  sharedNodes,
  streamTree,
  viewThrough,
} from '../../src/executor/stream-window.js';

const streams = new Map([
  ['list', { initialCount: 2, label: undefined }],
  ['list.inner', { initialCount: 1, label: 'inner' }],
]);
const item = (n: number) => ({ n, inner: [{ m: 0 }, { m: 1 }, { m: 2 }] });
const data = () => ({ list: Array.from({ length: 10 }, (_, n) => item(n)), other: [{ x: 1 }] });

describe('stream batches', () => {
  it('after the initial items: max(initialCount, 1), then twice that, then the rest', () => {
    const stream = { initialCount: 2, label: undefined };
    expect(Array.from({ length: 10 }, (_, index) => batchOf(index, stream))).toEqual([0, 0, 1, 1, 2, 2, 2, 2, 3, 3]);
    expect([0, 1, 2, 3].map((batch) => rangeOf(batch, stream))).toEqual([
      [0, 2],
      [2, 4],
      [4, 8],
      [8, Number.POSITIVE_INFINITY],
    ]);
    expect([0, 1, 2, 3].map((index) => batchOf(index, { initialCount: 0, label: undefined }))).toEqual([1, 2, 2, 3]);
  });

  it('a batch fetches for its own entities only: the first streamed index past the initial ones decides', () => {
    const window = (batch: number) => ({ batch, streams, shared: sharedNodes() });
    const root = { path: [], data: data(), fullResult: {} };
    const initial = moveIntoWindow(root, ['list', '@', 'inner', '@'], window(0));
    // Items 0–1, and of each only its first inner item.
    expect(initial?.paths).toEqual([
      ['list', 0, 'inner', 0],
      ['list', 1, 'inner', 0],
    ]);
    const first = moveIntoWindow(root, ['list', '@', 'inner', '@'], window(1));
    // The later inner items of the initial items (batch 1 of `inner`), and items 2–3 whole.
    expect(first?.paths).toEqual([
      ['list', 0, 'inner', 1],
      ['list', 1, 'inner', 1],
      ['list', 2, 'inner', 0],
      ['list', 2, 'inner', 1],
      ['list', 2, 'inner', 2],
      ['list', 3, 'inner', 0],
      ['list', 3, 'inner', 1],
      ['list', 3, 'inner', 2],
    ]);
    expect(crossesStream([], ['list', '@'], streams)).toBe(true);
    expect(crossesStream([], ['other', '@'], streams)).toBe(false);
  });

  it('the view through a batch cuts each streamed list after it; occurrences are within the initial items', () => {
    const tree = streamTree(streams);
    const view = viewThrough(data(), tree, 0) as ReturnType<typeof data>;
    expect(view.list).toEqual([
      { n: 0, inner: [{ m: 0 }] },
      { n: 1, inner: [{ m: 0 }] },
    ]);
    expect(view.other).toEqual([{ x: 1 }]);
    expect(occurrencesOf(data(), tree).map(({ path }) => path)).toEqual([
      ['list'],
      ['list', 0, 'inner'],
      ['list', 1, 'inner'],
    ]);
  });
});

describe('incremental formats', () => {
  it('by Accept: the preferred of deferSpec=20220824 (or plain multipart/mixed) and incrementalSpec=v0.2', () => {
    expect(incrementalFormat('multipart/mixed;deferSpec=20220824,application/json')).toBe('20220824');
    expect(incrementalFormat('multipart/mixed;incrementalSpec=v0.2,application/graphql-response+json')).toBe('v0.2');
    expect(incrementalFormat('multipart/mixed')).toBe('20220824');
    expect(incrementalFormat('multipart/mixed;deferSpec=20220824;q=0.5, multipart/mixed;incrementalSpec=v0.2')).toBe(
      'v0.2',
    );
    expect(incrementalFormat('multipart/mixed;incrementalSpec=v0.2, multipart/mixed;deferSpec=20220824')).toBe('v0.2');
    for (const refused of [
      undefined,
      'application/json',
      'multipart/mixed;subscriptionSpec=1.0',
      'multipart/mixed;incrementalSpec=v1',
    ])
      expect(incrementalFormat(refused)).toBeUndefined();
  });

  it('v0.2: pending ids, items and data under them, completed; errors nobody takes complete what is open', () => {
    const { pending, convert } = toV02([
      { key: 's', path: ['list'], label: 'l' },
      { key: 'd', path: ['user'] },
    ]);
    expect(pending).toEqual([
      { id: '0', path: ['list'], label: 'l' },
      { id: '1', path: ['user'] },
    ]);
    expect(
      convert({
        incremental: [
          { items: [1], path: ['list', 2], pendingKey: 's' },
          { data: { a: 1 }, path: ['user'], pendingKey: 'd' },
        ],
        hasNext: true,
      }),
    ).toEqual({
      incremental: [
        { id: '0', items: [1] },
        { id: '1', data: { a: 1 } },
      ],
      completed: [{ id: '1' }],
      hasNext: true,
    });
    const error = { message: 'too large' };
    expect(convert({ incremental: [{ data: null, path: [], errors: [error] }], hasNext: false })).toEqual({
      completed: [{ id: '0', errors: [error] }],
      hasNext: false,
    });
  });
});
