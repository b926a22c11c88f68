import { seededRandom } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { markShared, stringifyResult } from '../../src/serialize/shared-answer.js';

/** Apollo Server's default `stringifyResult`, from the installed package (its exports map hides the file). */
const { prettyJSONStringify } = (await import(
  new URL('./runHttpQuery.js', import.meta.resolve('@apollo/server')).href
)) as { prettyJSONStringify: (value: unknown) => string };

interface Result {
  errors?: unknown;
  data?: unknown;
  extensions?: unknown;
}

/** What Apollo Server gives `stringifyResult` (runHttpQuery's orderExecutionResultFields). */
const ordered = (result: Result) => ({ errors: result.errors, data: result.data, extensions: result.extensions });

/** Serializes `result` unshared, then shared twice (the first write fills the cache, the second reads it). */
function bodies(result: object): string[] {
  const unshared = stringifyResult(result);
  markShared((result as Result).data);
  return [unshared, stringifyResult(result), stringifyResult(result)];
}

const RESULTS: Result[] = [
  { data: { a: 1, b: [1, 2, { c: 'é 漢字 😀 "q" \\ \n \u2028 \ud800' }] } },
  { data: null, errors: [{ message: 'x', path: ['a', 0], extensions: { code: 'C' } }] },
  { errors: [{ message: 'only errors' }] },
  { data: { user: null }, errors: [{ message: 'e' }], extensions: { cost: { estimated: 3 } } },
  { data: Object.assign(Object.create(null), { z: 1, a: { y: true, b: null } }), extensions: { k: 'v' } },
  { data: {}, extensions: undefined },
  { data: { list: [] }, errors: [] },
  { data: { b: 1, 10: 'integer keys first', 2: 'x', skipped: undefined, holes: [undefined, () => 1] } },
  { data: { n: [-0, 1e21, 0.1, Number.NaN, Number.POSITIVE_INFINITY], when: new Date(0) } },
];

/** A JSON-ish value: every kind JSON.stringify treats specially, nested up to `depth`. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = () =>
    Array.from({ length: Math.floor(random() * 6) }, () =>
      pick(['a', 'é', '漢', '😀', '"', '\\', '\n', '\u0000', '\u2028', '\ud83d', '</script>', ' ']),
    ).join('');
  const kind = depth <= 0 ? Math.floor(random() * 6) : Math.floor(random() * 8);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick([0, -0, 1, -1.5, 1e21, 2 ** 53 + 1, Number.NaN, random()]);
    case 3:
      return text();
    case 4:
      return undefined;
    case 5:
      return pick([Symbol('s'), () => 0, new Date(1_700_000_000_000)]);
    case 6:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth - 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 5); i > 0; i--)
        object[pick([text(), String(i), 'data'])] = randomValue(random, depth - 1);
      return object;
    }
  }
}

describe('stringifyResult', () => {
  it("writes Apollo Server's default bytes for every result, shared or not", () => {
    for (const result of RESULTS) {
      const expected = prettyJSONStringify(ordered(result));
      expect(bodies(ordered(result))).toEqual([expected, expected, expected]);
    }
  });

  it("writes Apollo Server's default bytes for 500 random results, in any member order", () => {
    const random = seededRandom(22);
    for (let run = 0; run < 500; run++) {
      const data = random() < 0.85 ? (randomValue(random, 4) ?? {}) : null;
      const result: Result = {
        ...(random() < 0.4 && { errors: [{ message: 'e', path: ['a', 0], extensions: randomValue(random, 2) }] }),
        data: typeof data === 'object' ? data : { value: data },
        ...(random() < 0.5 && { extensions: randomValue(random, 3) }),
      };
      const shape = random() < 0.8 ? ordered(result) : { extensions: result.extensions, ...result };
      const expected = prettyJSONStringify(shape);
      expect(bodies(shape), `run ${run}`).toEqual([expected, expected, expected]);
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
    const written = Array.from({ length: 5 }, (_, caller) =>
      stringifyResult(ordered({ data, extensions: { caller } })),
    );
    expect(reads).toBe(1);
    expect(written).toEqual(
      Array.from({ length: 5 }, (_, caller) => `{"data":{"answer":42},"extensions":{"caller":${caller}}}\n`),
    );
  });

  it('gives each caller its own errors and extensions around the shared data', () => {
    const data = { topProducts: [{ id: 'product-1' }] };
    markShared(data);
    expect(stringifyResult(ordered({ data }))).toBe('{"data":{"topProducts":[{"id":"product-1"}]}}\n');
    expect(stringifyResult(ordered({ data, errors: [{ message: 'yours' }], extensions: { id: 2 } }))).toBe(
      '{"errors":[{"message":"yours"}],"data":{"topProducts":[{"id":"product-1"}]},"extensions":{"id":2}}\n',
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

  it("serializes a caller's patched copy of shared data (as authorization makes one) on its own", () => {
    const shared = { user: { id: 'user-1', address: 'hidden' }, other: 1 };
    markShared(shared);
    expect(stringifyResult({ data: shared })).toBe('{"data":{"user":{"id":"user-1","address":"hidden"},"other":1}}\n');
    // Copy-on-write: the copy holds the shared nested objects it did not change.
    const patched = { ...shared, user: null };
    expect(stringifyResult({ data: patched })).toBe('{"data":{"user":null,"other":1}}\n');
    expect(stringifyResult({ data: { ...shared } })).toBe(
      '{"data":{"user":{"id":"user-1","address":"hidden"},"other":1}}\n',
    );
  });
});
