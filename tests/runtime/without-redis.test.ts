import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { findRedisServer, ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// `pnpm test` on a machine with only Node and npm: the suites that need redis-server skip and
// are listed once at the end with the command that enables them; under CI=true the run fails.

const VITEST = `${ROOT}node_modules/vitest/vitest.mjs`;
const CONFIG = 'tests/runtime/fixtures/needs-redis.config.ts';

function runFixture(env: Record<string, string>) {
  const { REDIS_SERVER_BIN: _bin, CI: _ci, FORCE_COLOR: _color, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [VITEST, 'run', '--config', CONFIG], {
    cwd: ROOT,
    env: { ...inherited, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A PATH with the node binary's directory only: no redis-server on it (checked). */
const PATH_WITHOUT_REDIS = dirname(process.execPath);

describe('the suites that need redis-server, on a machine without it', () => {
  it('skip, and the run passes and says once what it skipped and how to enable it', () => {
    const { status, output } = runFixture({ PATH: PATH_WITHOUT_REDIS });
    expect(output).toMatch(/Tests +1 passed \| 1 skipped/);
    expect(status, output).toBe(0);
    const summary =
      /Skipped the tests that need redis-server \(not on PATH\) in 1 file\(s\): tests\/runtime\/fixtures\/needs-redis\.fixture\.ts\./g;
    expect(output.match(summary), output).toHaveLength(1);
    expect(output).toContain('To run them: apt-get install redis-server');
  });

  it('fail the run under CI=true', () => {
    const { status, output } = runFixture({ PATH: PATH_WITHOUT_REDIS, CI: 'true' });
    expect(status).not.toBe(0);
    expect(output).toContain('CI=true and redis-server is not on PATH');
  });

  it.skipIf(!findRedisServer())('run, and nothing is listed, when redis-server is on PATH', () => {
    const redis = findRedisServer() as string;
    const { status, output } = runFixture({ PATH: `${PATH_WITHOUT_REDIS}:${dirname(redis)}` });
    expect(status, output).toBe(0);
    expect(output).toMatch(/Tests +2 passed/);
    expect(output).not.toContain('Skipped the tests that need');
  });
});
