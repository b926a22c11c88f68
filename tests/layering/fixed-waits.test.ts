// The test code's waits on a timer (docs/testing.md, "Waiting"): each says what kind it is, and
// fixed waits (a set time, where no event says what the test waits for) stay within a budget,
// each with its reason. The scanner reads text; the cases below show which ways of waiting it finds.
import { findTimerWaits, ROOT, timerWaitsIn } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

/** At most this many fixed waits in all the test code; lower it when one goes. */
const FIXED_WAIT_BUDGET = 4;

describe('timer waits in the test code', () => {
  const waits = findTimerWaits(ROOT);

  it('each says whether it is a fixed wait, a poll, a deadline or a simulated latency', () => {
    expect(
      waits.filter((wait) => wait.kind === undefined).map((wait) => `${wait.file}:${wait.line} ${wait.text}`),
    ).toEqual([]);
  });

  it(`fixed waits: at most ${FIXED_WAIT_BUDGET}, each saying why no event exists`, () => {
    const fixed = waits.filter((wait) => wait.kind === 'fixed wait');
    expect(fixed.length, fixed.map((wait) => `${wait.file}:${wait.line}`).join('\n')).toBeLessThanOrEqual(
      FIXED_WAIT_BUDGET,
    );
    for (const wait of fixed) expect(wait.reason.length, `${wait.file}:${wait.line}`).toBeGreaterThan(20);
  });

  it("are read from the files (eventually()'s own poll is among them)", () => {
    expect(waits).toContainEqual(expect.objectContaining({ file: 'test-support/src/eventually.ts', kind: 'poll' }));
  });
});

describe('the scanner', () => {
  const kinds = (text: string, file = 'tests/x.test.ts') =>
    timerWaitsIn(file, text).map((wait) => wait.kind ?? 'unmarked');

  it('finds a promise a setTimeout resolves, under any name for the resolver, with or without a type', () => {
    expect(kinds('await new Promise((resolve) => setTimeout(resolve, 100));')).toEqual(['unmarked']);
    expect(kinds('await new Promise((r) => setTimeout(r, 5));')).toEqual(['unmarked']);
    expect(kinds('await new Promise<void>(r => setTimeout(r, 5));')).toEqual(['unmarked']);
    expect(kinds('await Promise.race([p, new Promise((resolve) => setTimeout(resolve, 150))]);')).toEqual(['unmarked']);
  });

  it("finds timers/promises' setTimeout under its own name or an alias, and scheduler.wait", () => {
    expect(kinds("import { setTimeout as sleep } from 'node:timers/promises';\nawait sleep(300);")).toEqual([
      'unmarked',
    ]);
    expect(kinds("import { setTimeout } from 'node:timers/promises';\nawait setTimeout(100);")).toEqual(['unmarked']);
    expect(kinds("import { scheduler } from 'node:timers/promises';\nawait scheduler.wait(10);")).toEqual(['unmarked']);
  });

  it('counts the calls of a helper built on a timer, not its definition', () => {
    const text = [
      'const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));',
      'await sleep(1);',
      'await sleep(2);',
    ].join('\n');
    expect(timerWaitsIn('tests/x.test.ts', text).map((wait) => wait.line)).toEqual([2, 3]);
  });

  it("finds test-support's fixedWait (and the settle it replaced) when imported", () => {
    expect(kinds("import { fixedWait } from '@fedgw/test-support';\nawait fixedWait(500);")).toEqual(['unmarked']);
    expect(kinds("import { settle } from '@fedgw/test-support';\nawait settle();")).toEqual(['unmarked']);
    // A function of the test's own that happens to be called settle is not one.
    expect(kinds('const settle = (value: boolean) => resolve(value);\nsettle(true);')).toEqual([]);
  });

  it('reads the kind from a comment on the line or the line above', () => {
    const marked =
      "import { fixedWait } from '@fedgw/test-support';\n// fixed wait: nothing reports it\nawait fixedWait(5);";
    expect(timerWaitsIn('tests/x.test.ts', marked)).toEqual([
      {
        file: 'tests/x.test.ts',
        line: 3,
        text: 'await fixedWait(5);',
        kind: 'fixed wait',
        reason: 'nothing reports it',
      },
    ]);
    expect(kinds('await new Promise((resolve) => setTimeout(resolve, 10)); // poll: check(), until it passes')).toEqual(
      ['poll'],
    );
  });

  it('leaves alone a timer that calls back, a timer that rejects, and setImmediate', () => {
    expect(kinds('setTimeout(() => res.end(), 100);')).toEqual([]);
    expect(kinds("new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 40));")).toEqual([]);
    expect(kinds('await new Promise((resolve) => setImmediate(resolve));')).toEqual([]);
  });
});
