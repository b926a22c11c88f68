import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { MOUNTS, type RawAnswer, type RunningGateway, rawRequest, subgraphUrlEnv } from '@fedgw/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * Request bodies in gzip, deflate or br, on every mount: BODY_LIMIT counts the bytes they
 * inflate to, so a zip bomb (128 MB of JSON in ~130 KB of gzip) is refused with 413 after at
 * most the limit is inflated, and the gateway's memory does not grow by what the bomb would
 * inflate to; a coding the gateway cannot read gets 415, a corrupt or truncated one 400.
 */
const MB = 1024 * 1024;
const BOMB_INFLATED_BYTES = 128 * MB;
const QUERY = { query: '{ __typename }' };
const TYPENAME_ANSWER = { data: { __typename: 'Query' } };
const subgraphs = subgraphsForFile();
let bomb: Buffer;

beforeAll(async () => {
  bomb = await gzipBomb(BOMB_INFLATED_BYTES);
});

const postEncoded = (gateway: RunningGateway, body: Buffer, contentEncoding: string) =>
  rawRequest(gateway.url, {
    headers: { 'content-type': 'application/json', 'content-encoding': contentEncoding },
    body,
  });

function errorCode(answer: RawAnswer): unknown {
  return (JSON.parse(answer.body.toString('utf8')) as { errors: { extensions: { code: string } }[] }).errors[0]
    ?.extensions.code;
}

describe.each(MOUNTS)('compressed request bodies on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => subgraphUrlEnv(subgraphs()));

  it('a zip bomb is refused with 413 PAYLOAD_TOO_LARGE, and the gateway does not inflate it into memory', async () => {
    expect(bomb.length).toBeLessThan(BOMB_INFLATED_BYTES / 500);
    const pid = gateway().child.pid as number;
    const before = resetPeakRss(pid);
    const answer = await postEncoded(gateway(), bomb, 'gzip');
    expect(answer.status).toBe(413);
    expect(errorCode(answer)).toBe('PAYLOAD_TOO_LARGE');
    // The default BODY_LIMIT is 2 MB: a few times that is parsing and garbage, not the 128 MB it inflates to.
    expect(peakRss(pid) - before).toBeLessThan(32 * MB);
    const next = await postEncoded(gateway(), gzipSync(JSON.stringify(QUERY)), 'gzip');
    expect(next.status).toBe(200);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['GZIP', gzipSync],
  ])('a body in %s within BODY_LIMIT is decoded and answered', async (coding, encode) => {
    const answer = await postEncoded(gateway(), encode(JSON.stringify(QUERY)), coding);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual(TYPENAME_ANSWER);
  });

  it('a gzip body that inflates to just under BODY_LIMIT is answered (the limit is the inflated size)', async () => {
    const padded = JSON.stringify({ ...QUERY, variables: { pad: 'a'.repeat(2 * MB - 100) } });
    expect(Buffer.byteLength(padded)).toBeLessThan(2 * MB);
    const answer = await postEncoded(gateway(), gzipSync(padded), 'gzip');
    expect(answer.status).toBe(200);
  });

  it.each(['compress', 'zstd', 'gzip, br', 'x-unknown'])(
    'Content-Encoding %j gets 415 UNSUPPORTED_MEDIA_TYPE',
    async (coding) => {
      const answer = await postEncoded(gateway(), gzipSync(JSON.stringify(QUERY)), coding);
      expect(answer.status).toBe(415);
      expect(errorCode(answer)).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(JSON.parse(answer.body.toString('utf8')).errors[0].message).toMatch(/Content-Encoding/);
    },
  );

  it.each([
    ['a truncated gzip body', 'gzip', gzipSync(JSON.stringify({ ...QUERY, pad: 'x'.repeat(5000) })).subarray(0, 40)],
    ['bytes that are not gzip at all', 'gzip', Buffer.from(JSON.stringify(QUERY))],
    [
      'a truncated br body',
      'br',
      brotliCompressSync(JSON.stringify({ ...QUERY, pad: 'x'.repeat(5000) })).subarray(0, 8),
    ],
  ])('%s gets 400 BAD_REQUEST, not 500', async (_name, coding, body) => {
    const answer = await postEncoded(gateway(), body, coding);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('BAD_REQUEST');
    expect(JSON.parse(answer.body.toString('utf8')).errors[0].message).toMatch(/Content-Encoding/);
  });
});

/** Resets the process's peak resident set (VmHWM) to its current one and returns it, in bytes. */
function resetPeakRss(pid: number): number {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return peakRss(pid);
}

function peakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for ${pid}`);
  return Number(match[1]) * 1024;
}

/** A JSON request whose variable is `inflatedBytes` of one letter, gzipped as it is written. */
async function gzipBomb(inflatedBytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  gzip.write(`{"query":"{ __typename }","variables":{"pad":"`);
  const letters = Buffer.alloc(MB, 'a');
  for (let written = 0; written < inflatedBytes; written += MB) {
    if (!gzip.write(letters)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end('"}}');
  await done;
  return Buffer.concat(chunks);
}
