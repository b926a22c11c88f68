import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closedPortUrl, MOUNTS } from '@fedgw/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayForBlock } from '../support/lifecycle.js';

/**
 * Hostile uploads (the GraphQL multipart request spec), on every mount, against a reviews
 * subgraph of the test's own that records how each request to it ended: a file that never ends
 * (cut at UPLOAD_MAX_FILE_BYTES, 413, the subgraph sees its upload aborted), too many files, a
 * `map` naming what is not there or not an `Upload`, no preflight header (CSRF), a subgraph that
 * answers without reading the file, a client that stalls mid-file (UPLOAD_IDLE_TIMEOUT_MS, the
 * test waits on the stall's answer, no sleep), files with a query, and uploads while off (415,
 * answered while the endless body is still being sent), and one client holding UPLOAD_MAX_PER_CLIENT
 * stalled uploads (its next is refused 429 unread; another client's goes through). Nothing may
 * hang: each wait has a deadline.
 */
const MAX_FILE_BYTES = 256 * 1024;
const IDLE_TIMEOUT_MS = 1000;
const BOUNDARY = 'hostile-boundary';
const PHOTO = 'mutation Photo($p: Upload!) { addReviewPhoto(reviewId: "review-1", photo: $p) { size } }';
const CHUNK = Buffer.alloc(16 * 1024, 7);

type Ending = 'complete' | 'aborted';
/** What the test's subgraph does with an upload: read it all and answer, or answer at once and never read. */
let mode: 'read' | 'ignore' = 'read';
/** Requests the subgraph received in this test. */
let arrived = 0;
let ended: ((ending: Ending) => void) | undefined;
/** Waiting for the next requests to reach the subgraph, first come first served: each gets when its request closes. */
const arrivals: ((arrival: Arrival) => void)[] = [];
/** A request that reached the subgraph. In an object: a promise resolved with a promise would wait for that one. */
type Arrival = { readonly closed: Promise<void> };
let subgraph: Server;
let subgraphUrl = '';

beforeAll(async () => {
  subgraph = createServer((req, res) => {
    // The ending reported is this request's: a late close of an earlier test's request reports nothing.
    const report = ended;
    ended = undefined;
    arrived += 1;
    arrivals.shift()?.({ closed: new Promise((resolve) => req.once('close', () => resolve())) });
    req.on('close', () => report?.(req.complete ? 'complete' : 'aborted'));
    const answer = () => {
      const body = JSON.stringify({ data: { addReviewPhoto: { size: 1 } } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (mode === 'ignore') {
      req.pause();
      return answer();
    }
    req.resume();
    req.on('end', answer);
  });
  subgraph.listen(0, '127.0.0.1');
  await once(subgraph, 'listening');
  subgraphUrl = `http://127.0.0.1:${(subgraph.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  subgraph.closeAllConnections();
  await new Promise((resolve) => subgraph.close(resolve));
});
beforeEach(() => {
  mode = 'read';
  arrived = 0;
  ended = undefined;
  arrivals.length = 0;
});

/** How the next request the subgraph receives ends (read to its end, or aborted). */
function nextEnding(): Promise<Ending> {
  return new Promise((resolve) => {
    ended = resolve;
  });
}

const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (key: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const preamble = (query: string, variables: Record<string, null>, map: Record<string, string[]>) =>
  field('operations', JSON.stringify({ query, variables })) + field('map', JSON.stringify(map));

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: { errors?: { extensions?: { code?: string } }[]; data?: unknown };
  /** Bytes of the body the client had written when the answer came. */
  written: number;
}

/**
 * A multipart POST whose body `write` produces as the socket takes it, until it returns
 * undefined (the end), `'stall'` (stop writing, keep the socket open) or the answer arrives.
 */
function upload(
  url: string,
  first: string,
  next: (written: number) => Buffer | string | 'stall' | undefined,
  headers: Record<string, string> = { 'apollo-require-preflight': 'true' },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let written = 0;
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    });
    req.on('response', (res) => {
      answered = true;
      const at = written;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(Buffer.concat(chunks).toString()),
          written: at,
        });
        req.destroy();
      });
    });
    // The gateway may close the socket on an answer sent while the body still comes.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && !req.destroyed) {
        const chunk = next(written);
        if (chunk === 'stall') return;
        if (chunk === undefined) return void req.end();
        written += Buffer.byteLength(chunk);
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    req.write(first);
    pump();
  });
}

/**
 * A file that keeps coming for 1 MiB, then stalls with the socket open: far more than a refusal
 * may read, and less than the 8 MiB the gateway drains after answering before it resets the
 * socket (an endless writer on a loaded machine could reach that before it reads the answer).
 */
function untilOneMebibyte(written: number): Buffer | 'stall' {
  return written < 1024 * 1024 ? CHUNK : 'stall';
}

/** A whole body: the preamble, then each file of `sizes`, then the closing boundary. */
function finite(parts: (Buffer | string)[]): (written: number) => Buffer | string | undefined {
  let at = 0;
  return () => parts[at++];
}
const fileParts = (sizes: number[]) => [
  ...sizes.flatMap((size, key) => [fileHead(String(key)), Buffer.alloc(size, 1), '\r\n']),
  `--${BOUNDARY}--\r\n`,
];
const codeOf = (answer: Answer) => answer.body.errors?.[0]?.extensions?.code;

describe.each(MOUNTS)('hostile uploads on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    SUBGRAPH_REVIEWS_URL: subgraphUrl,
    UPLOADS: 'true',
    UPLOAD_MAX_FILES: '2',
    UPLOAD_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
  }));
  let unusedUrl = '';
  beforeAll(async () => {
    unusedUrl = await closedPortUrl();
  });

  it('a well-formed upload within the limits reaches the subgraph whole (the baseline)', async () => {
    const ending = nextEnding();
    const answer = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, { 0: ['variables.p'] }),
      finite(fileParts([MAX_FILE_BYTES])),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ addReviewPhoto: { size: 1 } });
    expect(await ending).toBe('complete');
    expect(unusedUrl).not.toBe('');
  });

  it('a file that never ends is cut at UPLOAD_MAX_FILE_BYTES: 413, the subgraph sees its upload aborted', async () => {
    const ending = nextEnding();
    // Four times the file limit, then a stall: the file never ends, and an endless writer could pass
    // the 8 MiB the gateway drains after answering on a loaded machine (a reset before it reads).
    const body = [fileHead('0')];
    const answer = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, { 0: ['variables.p'] }),
      (written) => body.shift() ?? untilOneMebibyte(written),
    );
    expect(answer.status).toBe(413);
    expect(codeOf(answer)).toBe('PAYLOAD_TOO_LARGE');
    expect(await ending).toBe('aborted');
  });

  it('more files than UPLOAD_MAX_FILES: 413 from the map, before any file is read', async () => {
    const map = { 0: ['variables.p'], 1: ['variables.p'], 2: ['variables.p'] };
    const body = [fileHead('0')];
    const answer = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, map),
      (written) => body.shift() ?? untilOneMebibyte(written),
    );
    expect(answer.status).toBe(413);
    expect(codeOf(answer)).toBe('PAYLOAD_TOO_LARGE');
    expect(arrived).toBe(0);
  });

  it('a map naming a variable the operation does not have: 400, nothing sent on', async () => {
    const answer = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, { 0: ['variables.nope'] }),
      finite(fileParts([10])),
    );
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toBe('BAD_REQUEST');
    expect(arrived).toBe(0);
  });

  it('a file at a variable that is not an Upload: 400 UPLOAD_NOT_ALLOWED, nothing sent on', async () => {
    const query = 'mutation Photo($id: ID!, $p: Upload!) { addReviewPhoto(reviewId: $id, photo: $p) { size } }';
    const map = { 0: ['variables.id'], 1: ['variables.p'] };
    const answer = await upload(
      gateway().url,
      preamble(query, { id: null, p: null }, map),
      finite(fileParts([10, 10])),
    );
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toBe('UPLOAD_NOT_ALLOWED');
    expect(arrived).toBe(0);
  });

  it('files with a query: 400 UPLOAD_NOT_ALLOWED before any file is read', async () => {
    const query = 'query Q($p: Upload) { __typename }';
    const body = [fileHead('0')];
    const answer = await upload(
      gateway().url,
      preamble(query, { p: null }, { 0: ['variables.p'] }),
      (written) => body.shift() ?? untilOneMebibyte(written),
    );
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toBe('UPLOAD_NOT_ALLOWED');
  });

  it('a batch in `operations`, or a compressed multipart body, is refused before any file is read', async () => {
    const batch = field('operations', JSON.stringify([{ query: PHOTO, variables: { p: null } }]));
    const body = [fileHead('0')];
    const batched = await upload(
      gateway().url,
      batch + field('map', '{"0":["0.variables.p"]}'),
      (written) => body.shift() ?? untilOneMebibyte(written),
    );
    expect([batched.status, codeOf(batched)]).toEqual([400, 'BAD_REQUEST']);
    const headers = { 'apollo-require-preflight': 'true', 'content-encoding': 'gzip' };
    const coded = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, { 0: ['variables.p'] }),
      untilOneMebibyte,
      headers,
    );
    expect([coded.status, codeOf(coded)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(arrived).toBe(0);
  });

  it('an upload without a preflight-forcing header is refused as CSRF, unread', async () => {
    const answer = await upload(gateway().url, preamble(PHOTO, { p: null }, { 0: ['variables.p'] }), () => CHUNK, {});
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toBe('BAD_REQUEST');
    expect(JSON.stringify(answer.body)).toMatch(/Cross-Site Request Forgery/);
    expect(arrived).toBe(0);
  });

  it('a subgraph that answers without reading the file: the gateway answers, nothing hangs', async () => {
    mode = 'ignore';
    const answer = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, { 0: ['variables.p'] }),
      finite(fileParts([MAX_FILE_BYTES])),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ addReviewPhoto: { size: 1 } });
  });

  it('a client that stalls mid-file: 408 UPLOAD_IDLE_TIMEOUT, the subgraph sees its upload aborted', async () => {
    const ending = nextEnding();
    const body: (Buffer | string)[] = [fileHead('0'), CHUNK];
    // deadline: the answer comes UPLOAD_IDLE_TIMEOUT_MS after the stall; vitest's own timeout bounds the wait.
    const answer = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, { 0: ['variables.p'] }),
      () => body.shift() ?? 'stall',
    );
    expect(answer.status).toBe(408);
    expect(codeOf(answer)).toBe('UPLOAD_IDLE_TIMEOUT');
    expect(await ending).toBe('aborted');
  });
});

describe.each(MOUNTS)('uploads while off on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ SUBGRAPH_REVIEWS_URL: subgraphUrl }));

  it('an endless upload is refused 415 before its body is read', async () => {
    const answer = await upload(gateway().url, preamble(PHOTO, { p: null }, { 0: ['variables.p'] }), () => CHUNK);
    expect(answer.status).toBe(415);
    expect(codeOf(answer)).toBe('UNSUPPORTED_MEDIA_TYPE');
    // Never decoded: one that is not gzip at all crashed a Fastify mount once, when decoded while its rest was dropped.
    const headers = { 'content-encoding': 'gzip' };
    const coded = await upload(
      gateway().url,
      preamble(PHOTO, { p: null }, { 0: ['variables.p'] }),
      () => CHUNK,
      headers,
    );
    expect([coded.status, codeOf(coded)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(arrived).toBe(0);
  });
});

/** The next request to reach the subgraph: resolves once it has, with a promise of its close. */
function subgraphRequest(): Promise<Arrival> {
  return new Promise((resolve) => arrivals.push(resolve));
}

/** An upload that sends its operation and a first chunk of its file, then waits for `finish` or `abort`. */
function heldUpload(url: string, headers: Record<string, string>) {
  const req = request(url, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  status.catch(() => {}); // an aborted one never answers
  req.write(preamble(PHOTO, { p: null }, { 0: ['variables.p'] }));
  req.write(fileHead('0'));
  req.write(CHUNK);
  return { status, finish: () => req.end(`\r\n--${BOUNDARY}--\r\n`), abort: () => req.destroy() };
}

const PER_CLIENT = 2;
const fromClient = (address: string) => ({ 'apollo-require-preflight': 'true', 'x-forwarded-for': address });

describe.each(MOUNTS)('uploads per client on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    SUBGRAPH_REVIEWS_URL: subgraphUrl,
    UPLOADS: 'true',
    UPLOAD_MAX_PER_CLIENT: String(PER_CLIENT),
    // The stalled uploads stay until the test ends them (the idle timeout must not).
    UPLOAD_IDLE_TIMEOUT_MS: '600000',
    // Past this a client's requests wait their turn unread (it divides among workers): the upload cap must come first.
    UNREAD_ANSWERS_MAX_PER_CLIENT: '100',
    // The test connects over loopback as the proxy; X-Forwarded-For names each client.
    TRUSTED_PROXIES: '127.0.0.1, ::1',
  }));
  const HOG = '203.0.113.7';
  const OTHER = '203.0.113.8';
  const photo = () => preamble(PHOTO, { p: null }, { 0: ['variables.p'] });

  it('one client with UPLOAD_MAX_PER_CLIENT uploads stalled mid-file gets 429 for its next, unread; another client uploads; the slots come back when the stalled ones end', async () => {
    const reached = Array.from({ length: PER_CLIENT }, subgraphRequest);
    const held = reached.map(() => heldUpload(gateway().url, fromClient(HOG)));
    // deadline: each stalled upload reaches the subgraph (its slot is held); vitest's timeout bounds the wait.
    const arrivedThere = await Promise.all(reached);

    const refused = await upload(gateway().url, photo(), untilOneMebibyte, fromClient(HOG));
    expect([refused.status, codeOf(refused)]).toEqual([429, 'UPLOAD_LIMIT_EXCEEDED']);
    expect(arrived).toBe(PER_CLIENT);

    const other = await upload(gateway().url, photo(), finite(fileParts([1024])), fromClient(OTHER));
    expect([other.status, other.body.data]).toEqual([200, { addReviewPhoto: { size: 1 } }]);

    // One ends well, the other's client goes away: both slots come back.
    const [done, gone] = held as [ReturnType<typeof heldUpload>, ReturnType<typeof heldUpload>];
    done.finish();
    expect(await done.status).toBe(200);
    gone.abort();
    await Promise.all(arrivedThere.map(({ closed }) => closed));
    for (let again = 0; again < PER_CLIENT; again++) {
      const answer = await upload(gateway().url, photo(), finite(fileParts([1024])), fromClient(HOG));
      expect(answer.status).toBe(200);
    }
  });
});
