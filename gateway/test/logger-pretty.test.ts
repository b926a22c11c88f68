// GATEWAY_LOG_PRETTY needs pino-pretty, a development dependency the production image does not hold:
// without it the logger writes JSON lines and says so, instead of failing to start. Run in a
// child process, since pino writes to the process's own stdout.
import { spawnSync } from 'node:child_process';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

function logOnce(installed: 'installed' | 'missing'): string[] {
  const script = `
    import { createLogger } from '@fedgw/gateway';
    const logger = createLogger({ log: { level: 'info', pretty: true } }, undefined, ${installed === 'missing' ? '() => false' : 'undefined'});
    logger.info('hello');`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split('\n');
}

describe('GATEWAY_LOG_PRETTY', () => {
  it('with pino-pretty installed (development): pretty lines', () => {
    const lines = logOnce('installed');
    expect(lines[0]).toMatch(/INFO.*hello/);
    expect(lines.join('\n')).not.toMatch(/^\{/m);
  });

  it('without it (the production image): JSON lines, and one warning saying why', () => {
    const lines = logOnce('missing').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        setting: 'GATEWAY_LOG_PRETTY',
        msg: expect.stringMatching(/pino-pretty is not installed/),
      }),
      expect.objectContaining({ level: 30, msg: 'hello' }),
    ]);
  });
});
