import { PassThrough } from 'node:stream';
import { manualClock } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { multipartBodyFor } from '../../src/uploads/multipart-body.js';
import { UploadSession } from '../../src/uploads/session.js';
import { UploadedFile } from '../../src/uploads/uploaded-file.js';

/**
 * One upload's session, driven by hand: the idle timer (UPLOAD_IDLE_TIMEOUT_MS) runs only while
 * someone waits for the client's bytes, on an injected clock; a file over UPLOAD_MAX_FILE_BYTES
 * fails the stream its fetch reads; the body a fetch sends is the spec's shape, its file piped.
 */
const BOUNDARY = 'b';
const LIMITS = { bodyLimitBytes: 64 * 1024, maxFiles: 2, maxFileBytes: 100, idleTimeoutMs: 500 };
const OPERATION = { query: 'mutation($p: Upload!) { add(p: $p) }', variables: { p: null } };
const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
// After the map's boundary, which busboy needs to see before it hands the map over.
const FILE_HEAD = `Content-Disposition: form-data; name="0"; filename="ü.txt"\r\nContent-Type: text/plain\r\n\r\n`;

function openSession() {
  const clock = manualClock();
  const body = new PassThrough();
  const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  const session = new UploadSession(headers, body, LIMITS, clock);
  body.write(
    `${field('operations', JSON.stringify(OPERATION))}${field('map', JSON.stringify({ 0: ['variables.p'] }))}--${BOUNDARY}\r\n`,
  );
  return { clock, body, session };
}

async function placeholderOf(session: UploadSession): Promise<UploadedFile> {
  const opened = await session.opened;
  if (!('body' in opened)) throw new Error('refused');
  const file = (opened.body.variables as { p: unknown }).p;
  if (!(file instanceof UploadedFile)) throw new Error('no placeholder');
  return file;
}

describe('an upload session', () => {
  it('stops waiting for bytes nobody asks for: the idle timer runs only while a fetch waits', async () => {
    const { clock, session } = openSession();
    await placeholderOf(session);
    await clock.advance(10 * LIMITS.idleTimeoutMs);
    expect(session.failure).toBeUndefined();
  });

  it('a client that stalls while a fetch waits for its file fails with UPLOAD_IDLE_TIMEOUT', async () => {
    const { clock, body, session } = openSession();
    const file = await placeholderOf(session);
    const arriving = file.claim();
    body.write(`${FILE_HEAD}hello`);
    const { stream } = await arriving;
    const chunks = stream[Symbol.asyncIterator]();
    expect(String((await chunks.next()).value)).toBe('hello');
    session.waiting(true);
    await clock.advance(LIMITS.idleTimeoutMs - 1);
    expect(session.failure).toBeUndefined();
    await clock.advance(1);
    expect(session.failure?.extensions.code).toBe('UPLOAD_IDLE_TIMEOUT');
    await expect(chunks.next()).rejects.toThrow(/no byte came/);
  });

  it('a file over UPLOAD_MAX_FILE_BYTES fails its stream and the session with PAYLOAD_TOO_LARGE', async () => {
    const { body, session } = openSession();
    const file = await placeholderOf(session);
    const arriving = file.claim();
    body.write(`${FILE_HEAD}${'x'.repeat(LIMITS.maxFileBytes + 1)}`);
    const { stream } = await arriving;
    await expect(stream.toArray()).rejects.toThrow(/over 100 bytes/);
    expect(session.failure?.extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a fetch sends the spec’s parts: operations with null at the file, the map, the file as it streams', async () => {
    const { body, session } = openSession();
    const file = await placeholderOf(session);
    const variables = { p: file };
    const operation = JSON.stringify({ query: 'mutation($p: Upload!) { add(p: $p) }', variables });
    const multipart = multipartBodyFor(operation, variables);
    if (!multipart) throw new Error('no multipart body');
    body.end(`${FILE_HEAD}${'y'.repeat(LIMITS.maxFileBytes)}\r\n--${BOUNDARY}--\r\n`);
    const sent = Buffer.concat(await multipart.body.toArray()).toString();
    const boundary = /boundary=(.+)$/.exec(multipart.headers['content-type'] ?? '')?.[1];
    expect(multipart.headers['apollo-require-preflight']).toBe('true');
    expect(sent).toContain('"variables":{"p":null}');
    expect(sent).toContain(`name="map"\r\n\r\n{"0":["variables.p"]}\r\n`);
    expect(sent).toContain(`name="0"; filename="ü.txt"\r\nContent-Type: text/plain\r\n\r\n${'y'.repeat(100)}\r\n`);
    expect(sent.endsWith(`--${boundary}--\r\n`)).toBe(true);
    expect(session.failure).toBeUndefined();
  });
});
