import { describe, expect, it } from 'vitest';
import { markShared, stringifyResult } from '../../src/serialize/shared-answer.js';

/** Apollo Server 5's default `stringifyResult` (runHttpQuery.js, not exported). */
const prettyJSONStringify = (value: unknown) => `${JSON.stringify(value)}\n`;

/** What Apollo Server gives `stringifyResult` (runHttpQuery's orderExecutionResultFields). */
const ordered = (result: { errors?: unknown; data?: unknown; extensions?: unknown }) => ({
  errors: result.errors,
  data: result.data,
  extensions: result.extensions,
});

const RESULTS = [
  { data: { a: 1, b: [1, 2, { c: 'é 漢字 😀 "q" \\ \n' }] } },
  { data: null, errors: [{ message: 'x', path: ['a', 0], extensions: { code: 'C' } }] },
  { errors: [{ message: 'only errors' }] },
  { data: { user: null }, errors: [{ message: 'e' }], extensions: { cost: { estimated: 3 } } },
  { data: Object.assign(Object.create(null), { z: 1, a: { y: true, b: null } }), extensions: { k: 'v' } },
  { data: {}, extensions: undefined },
  { data: { list: [] }, errors: [] },
];

describe('stringifyResult', () => {
  it("writes Apollo Server's default bytes for every result, shared or not", () => {
    for (const result of RESULTS) {
      const expected = prettyJSONStringify(ordered(result));
      expect(stringifyResult(ordered(result))).toBe(expected);
      markShared(result.data);
      // Twice: the first fills the cache, the second reads it.
      expect(stringifyResult(ordered(result))).toBe(expected);
      expect(stringifyResult(ordered(result))).toBe(expected);
    }
  });

  it("serializes a shared answer's data once, however many callers it is written for", () => {
    let reads = 0;
    const data = {
      get answer() {
        reads += 1;
        return 42;
      },
    };
    markShared(data);
    const bodies = Array.from({ length: 5 }, (_, caller) => stringifyResult(ordered({ data, extensions: { caller } })));
    expect(reads).toBe(1);
    expect(bodies).toEqual(
      Array.from({ length: 5 }, (_, caller) => `{"data":{"answer":42},"extensions":{"caller":${caller}}}\n`),
    );
  });

  it('never gives one object the bytes of another with the same content, nor an unshared object cached bytes', () => {
    const first = { n: 1 };
    const second = { n: 1 };
    markShared(first);
    expect(stringifyResult({ data: first })).toBe('{"data":{"n":1}}\n');
    second.n = 2;
    expect(stringifyResult({ data: second })).toBe('{"data":{"n":2}}\n');
    const unshared = { n: 3 };
    expect(stringifyResult({ data: unshared })).toBe('{"data":{"n":3}}\n');
    unshared.n = 4;
    expect(stringifyResult({ data: unshared })).toBe('{"data":{"n":4}}\n');
  });
});
