import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENABLE, find, MISSING, type Program, SKIP_LOG_ENV } from '@fedgw/test-support';

// Once per `pnpm test`: fail at once under CI=true when a program some suites need (redis-server,
// helm) is missing, otherwise collect the suites that skipped for want of it and list them, with
// the command that enables them, after the run.

export function setup(): () => void {
  for (const program of Object.keys(ENABLE) as Program[]) {
    if (process.env.CI === 'true' && !find(program)) {
      throw new Error(`CI=true and ${program} is ${MISSING[program]}: ${ENABLE[program]}`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'fedgw-skips-'));
  const log = join(dir, 'skipped.tsv');
  // Test workers are forked after this runs, so they inherit it.
  process.env[SKIP_LOG_ENV] = log;
  return () => {
    let lines: string[] = [];
    try {
      lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    } catch {}
    rmSync(dir, { recursive: true, force: true });
    const byProgram = new Map<string, Set<string>>();
    for (const line of lines) {
      const [program, file] = line.split('\t') as [Program, string];
      byProgram.set(program, (byProgram.get(program) ?? new Set()).add(file));
    }
    for (const [program, files] of byProgram) {
      console.log(
        `\nSkipped the tests that need ${program} (${MISSING[program as Program]}) in ${files.size} file(s): ${[...files].sort().join(', ')}.\n` +
          `To run them: ${ENABLE[program as Program]}\n`,
      );
    }
  };
}
