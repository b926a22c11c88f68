// GATEWAY_LOG_BUFFER_BYTES (ADR 046): log lines gathered into one write to standard output,
// each written within LOG_FLUSH_MS, and what is still buffered written when the process exits.
// Run in a child process, since pino writes to the process's own stdout; each chunk the parent
// reads from the pipe is one write of the child's (or more, never less: a write below the pipe's
// buffer is atomic).
import { spawn } from 'node:child_process';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

/** Five lines at once, then (while the process lives on) nothing for 500 ms, then one line and an immediate exit. */
function logAndExit(bufferBytes: number): Promise<{ chunks: string[]; status: number | null }> {
  const script = `
    import { createLogger } from '@fedgw/gateway';
    const logger = createLogger({ log: { level: 'info', pretty: false, bufferBytes: ${bufferBytes} } });
    for (let i = 1; i <= 5; i++) logger.info({ i }, 'gathered');
    setTimeout(() => { logger.info('last'); process.exit(0); }, 500);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  const chunks: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ chunks, status })));
}

const messages = (chunk: string) =>
  chunk
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('GATEWAY_LOG_BUFFER_BYTES', () => {
  it('buffered (the default, 4096): the five lines in one write before the process is idle long, the last one at exit', async () => {
    const { chunks, status } = await logAndExit(4096);
    expect(status).toBe(0);
    expect(messages(chunks[0] ?? '')).toEqual(Array(5).fill('gathered'));
    expect(chunks.flatMap(messages)).toEqual([...Array(5).fill('gathered'), 'last']);
  });

  it('0: every line is written, as pino writes by default', async () => {
    const { chunks, status } = await logAndExit(0);
    expect(status).toBe(0);
    expect(chunks.flatMap(messages)).toEqual([...Array(5).fill('gathered'), 'last']);
  });
});
