// The README is a front page, not a run log (issue 44): what it is, the two commands, the
// generated verdicts with their warnings, where to go next. Histories belong in docs/performance.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README.md, the front page', () => {
  it('stays at most 120 lines', () => {
    expect(README.split('\n').length - 1).toBeLessThanOrEqual(120);
  });

  it('gives the two commands with the pinned pnpm, never a bare `npx pnpm`', () => {
    expect(README).toContain('npx --yes pnpm@10.34.9 install && npx --yes pnpm@10.34.9 dev');
    expect(README).toContain('npx --yes pnpm@10.34.9 install && npx --yes pnpm@10.34.9 test');
    const bare = README.split('\n').filter(
      (line) => /npx pnpm (?!@)/.test(line) && !line.includes('A bare `npx pnpm`'),
    );
    expect(bare).toEqual([]);
  });
});
