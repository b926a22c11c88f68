import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MEMORY_DEFAULTS, memoryDefaultsToApply } from '../src/memory-defaults.js';

describe('the V8 memory defaults', () => {
  it('chooses the measured defaults when the command line names none of them', () => {
    expect(memoryDefaultsToApply([])).toEqual(['--heap-growing-percent=100']);
    expect(memoryDefaultsToApply(['--max-old-space-size=512', '--enable-source-maps'])).toEqual([...MEMORY_DEFAULTS]);
  });

  it("leaves a flag the operator set alone, in any of V8's spellings", () => {
    for (const execArgv of [
      ['--heap-growing-percent=0'],
      ['--heap_growing_percent=50'],
      ['--heap-growing-percent', '25'],
    ]) {
      expect(memoryDefaultsToApply(execArgv)).toEqual([]);
    }
  });

  it('every default is a flag this V8 knows (an unknown one would only print an error)', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    for (const flag of MEMORY_DEFAULTS) expect(options).toContain(`  ${flag.split('=')[0]} (`);
  });
});
