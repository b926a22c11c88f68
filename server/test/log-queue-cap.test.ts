// GATEWAY_LOG_MAX_QUEUED_BYTES (ADR 047): when standard output does not take the log lines (a
// stalled collector, a pipe nobody reads), what waits for it in the gateway's memory is capped;
// lines past the cap are dropped whole and counted, and requests are answered all along.
// One gateway process: first its stdout is read (nothing dropped), then the test stops
// reading the pipe while clients send requests whose log lines add up to far more than the cap.
import type { Readable } from 'node:stream';
import { eventually, postGraphQL, type RunningGateway, send, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CAP = 64 * 1024;
// The request line carries the operation's name, whole below 256 characters (longer ones are
// cut, request-line.test.ts): about 0.5 KB per line.
const operation = (prefix: string) => {
  const name = `${prefix}${'x'.repeat(240)}`;
  return { name, payload: { query: `query ${name} { __typename }` } };
};
// 2,000 lines of 0.5 KB, about 1 MB, against 64 KiB of cap plus what the pipe and this process's reader hold.
const STALLED_REQUESTS = 2000;
// About 300 KB: more than the cap and the pipe hold, so only a reader that takes them keeps them all.
const READ_REQUESTS = 600;
const READ_BATCH = 50;
// What the pipe (64 KiB on Linux) and this side's paused stream (a read or two of 64 KiB) hold, with room.
const OUTSIDE_THE_GATEWAY = 512 * 1024;

let gateway: RunningGateway;
let stdout = '';
let stderr = '';

beforeAll(async () => {
  gateway = await startGateway('fastify', { METRICS_ENABLED: 'true', GATEWAY_LOG_MAX_QUEUED_BYTES: '64kb' });
  gateway.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  gateway.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
});

afterAll(async () => {
  gateway?.child.stdout?.resume();
  await gateway?.stop();
});

async function droppedLines(): Promise<number> {
  const scrape = await send(`${gateway.origin}/metrics`, { method: 'GET' });
  const value = scrape.text.match(/^gateway_log_lines_dropped_total (\d+)$/m)?.[1];
  expect(value, scrape.text.slice(0, 500)).toBeDefined();
  return Number(value);
}

/** Sends `count` requests, `concurrency` at a time; every one must be answered 200. */
async function sendRequests(payload: { query: string }, count: number, concurrency = 8): Promise<void> {
  let sent = 0;
  const client = async () => {
    while (sent < count) {
      sent++;
      const answer = await postGraphQL(gateway.url, payload);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ __typename: 'Query' });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
}

/** The whole lines read so far that name `name`. */
const linesNaming = (name: string) =>
  stdout
    .slice(0, stdout.lastIndexOf('\n'))
    .split('\n')
    .filter((line) => line.includes(name));
/** Parses every line of `output`, which must end with a whole line. */
function expectWholeJsonLines(output: string): void {
  expect(output.endsWith('\n')).toBe(true);
  for (const line of output.split('\n').filter(Boolean)) {
    expect(JSON.parse(line), line.slice(0, 200)).toHaveProperty('msg');
  }
}

describe('GATEWAY_LOG_MAX_QUEUED_BYTES: standard output that does not take the lines', () => {
  it('read: every line is written, nothing is dropped', async () => {
    const { name, payload } = operation('Read');
    // In batches of 50 lines (25 KB, under the cap), each sent once the last one's lines were read:
    // however slow this process reads on a loaded machine (it once fell 38 lines behind, and the
    // gateway rightly dropped them), a read pipe never holds a cap's worth; 600 lines still add up
    // to far more than the cap, so a cap that never gave bytes back would drop some.
    for (let sent = 0; sent < READ_REQUESTS; sent += READ_BATCH) {
      await sendRequests(payload, READ_BATCH, 1);
      await eventually(() => expect(linesNaming(name)).toHaveLength(sent + READ_BATCH));
    }
    expectWholeJsonLines(`${linesNaming(name).join('\n')}\n`);
    expect(await droppedLines()).toBe(0);
    expect(stderr).not.toContain('GATEWAY_LOG_MAX_QUEUED_BYTES');
  });

  it('not read: requests are answered, lines past the cap are dropped and counted, the kept ones arrive whole', async () => {
    const { name, payload } = operation('Stalled');
    const from = stdout.length;
    (gateway.child.stdout as Readable).pause();
    await sendRequests(payload, STALLED_REQUESTS);
    const dropped = await droppedLines();
    expect(dropped).toBeGreaterThan(0);
    // One warning on standard error, and no content of a dropped line.
    const warnings = stderr.split('\n').filter((line) => line.includes('GATEWAY_LOG_MAX_QUEUED_BYTES'));
    expect(warnings.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 40, maxQueuedBytes: CAP, droppedSinceLastWarning: 1 }),
    ]);
    expect(stderr).not.toContain(name);

    (gateway.child.stdout as Readable).resume();
    // Every request's line was either written or counted as dropped.
    await eventually(async () => expect(linesNaming(name).length + (await droppedLines())).toBe(STALLED_REQUESTS));
    const kept = linesNaming(name);
    // What was held while nobody read is the cap's worth, not every line of the flood.
    expect(kept.join('\n').length).toBeLessThan(CAP + OUTSIDE_THE_GATEWAY);
    expectWholeJsonLines(stdout.slice(from));
  });
});
