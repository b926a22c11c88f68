import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no types
import { casesOf, formatTable, totals } from '../../scripts/federation-audit/results.mjs';

// A sample written here in the audit's output format (its suite id, then a coloured dot or X per case).
const OUTPUT =
  '\n\u001b[32m\nrequires-with-argument\n\u001b[32m.\u001b[39m\u001b[32m.\u001b[39m\u001b[31mX\u001b[39m\n\n';

describe('pnpm audit:federation reads the audit’s output', () => {
  it('takes the cases printed under the suite’s id, colours stripped', () => {
    expect(casesOf(OUTPUT, 'requires-with-argument')).toBe('..X');
  });

  it('has no result for a suite it did not print, or printed without cases', () => {
    expect(casesOf(OUTPUT, 'keys-mashup')).toBeUndefined();
    expect(casesOf('keys-mashup\nHealth check failed\n', 'keys-mashup')).toBeUndefined();
  });

  it('counts a suite without a result as a failed case, and lists the failing cases', () => {
    const results = [
      { suite: 'requires-with-argument', cases: '..X' },
      { suite: 'typename', cases: '......' },
      { suite: 'keys-mashup', cases: undefined },
    ];
    expect(totals(results)).toEqual({ passed: 8, total: 10 });
    const table = formatTable('fastify, hive', results);
    expect(table.split('\n')[0]).toBe('fastify, hive: 8/10');
    expect(table).toMatch(/requires-with-argument +2\/3 {2}\.\.X/);
    expect(table).toMatch(/typename +6\/6$/m);
    expect(table).toMatch(/keys-mashup +no result/);
  });
});
