import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { getEventListeners, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type OutgoingRequest, SubgraphHttp } from '../src/subgraph-fetch/http-attempt.js';
import type { Attempt } from '../src/subgraph-fetch/outcomes.js';

/**
 * SubgraphHttp's own reading of an answer (an undici dispatch handler, answer-reader.ts) at the
 * edges the data-source tests do not reach: a body cut off mid-read by the deadline or by the
 * subgraph, the `answered` line between retried and not, connections never reused after a
 * body is abandoned, and the shape of what is read. One raw server; `x-case` picks its answer.
 */
const ANSWER = '{"data":{"me":{"name":"Zoë €"}}}';
const cases: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  // Chunked, a multibyte character split across two chunks, duplicate headers.
  chunked(_req, res) {
    res.writeHead(200, [
      ['content-type', 'application/json'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['X-Served-By', 'users-1'],
    ]);
    const bytes = Buffer.from(ANSWER);
    const cut = bytes.indexOf('€') + 1;
    res.write(bytes.subarray(0, cut));
    setImmediate(() => res.end(bytes.subarray(cut)));
  },
  // A UTF-8 byte order mark before the JSON, framed both ways a body can be.
  'bom-chunked'(_req, res) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(Buffer.from([0xef, 0xbb]));
    setImmediate(() => res.end(Buffer.concat([Buffer.from([0xbf]), Buffer.from(ANSWER)])));
  },
  'bom-length'(_req, res) {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ANSWER)]);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  },
  // 3 KB in 1 KB chunks with no content-length: only counting finds it over a 2 KB limit.
  endless(_req, res) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"data":{"x":"${'x'.repeat(1024)}`);
    setImmediate(() => {
      res.write('x'.repeat(1024));
      setImmediate(() => res.end(`${'x'.repeat(1024)}"}}`));
    });
  },
  // A content-length over a 2 KB limit, the start of the body, then nothing more.
  announces(_req, res) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 4096 });
    res.write('{"data":');
  },
  // Headers and the start of a body, then nothing more.
  stalls(_req, res) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":');
  },
  // Headers and the start of a body, then the connection breaks.
  breaks(_req, res) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":', () => setImmediate(() => res.socket?.destroy()));
  },
  // Broken before any answer.
  refuses(req) {
    req.socket.destroy();
  },
  // A GraphQL answer with 503 and a body larger than a socket read.
  unavailable(_req, res) {
    const body = JSON.stringify({ data: null, errors: [{ message: 'x'.repeat(256 * 1024) }] });
    res.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  },
  // Never answers.
  silent() {},
};

let url = '';
let connections = 0;
let closed = 0;
const server = createServer((req, res) => {
  req.resume();
  cases[String(req.headers['x-case'])]?.(req, res);
});
server.on('connection', (socket) => {
  connections++;
  socket.on('close', () => closed++);
});
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const pools: SubgraphHttp[] = [];
afterEach(async () => {
  server.closeAllConnections();
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  connections = closed = 0;
});

function subgraph(connectionsMax = 4): SubgraphHttp {
  const http = new SubgraphHttp(url, {
    connections: connectionsMax,
    keepAliveMs: 4_000,
    timeoutMs: 3_000,
    maxResponseBytes: 2048,
  });
  pools.push(http);
  return http;
}

const request = (name: string, readLimit = 1024 * 1024): OutgoingRequest => ({
  headers: { 'content-type': 'application/json', 'x-case': name },
  body: '{"query":"{ me { name } }"}',
  readLimit,
  keepText: true,
  context: undefined,
});

/** An attempt's control: its own deadline signal; a retry, when asked, is planned in `delay` ms. */
function control(delay?: number) {
  const deadline = new AbortController();
  const asked = { count: 0 };
  return {
    deadline,
    asked,
    signal: deadline.signal,
    attempt: 1,
    retryDelay: () => {
      asked.count++;
      return delay;
    },
  };
}

/** Resolves once undici has the response headers of a request sent with this `x-case`. */
function headersArrive(name: string): Promise<void> {
  return new Promise((resolve) => {
    const onHeaders = (message: unknown) => {
      const { request: sent } = message as { request: { headers: string[] } };
      if (!sent.headers.includes(name)) return;
      unsubscribe('undici:request:headers', onHeaders);
      setImmediate(resolve); // after undici has handed them to the handler
    };
    subscribe('undici:request:headers', onHeaders);
  });
}

const failureOf = (attempt: Attempt) => ('failure' in attempt ? attempt : undefined);

const withoutDate = (attempt: Attempt) => {
  if (!('received' in attempt)) return attempt;
  const { date: _date, ...headers } = attempt.received.headers as Record<string, unknown>;
  return { ...attempt, received: { ...attempt.received, headers } };
};

/** An answer over a 2 KB read limit: refused as too large, the subgraph not marked unhealthy. */
const TOO_LARGE_FOR_2048 = {
  failure: { code: 'SUBGRAPH_RESPONSE_TOO_LARGE', what: 'answered with more than 2048 bytes', detail: { status: 200 } },
  unhealthy: false,
};

describe('SubgraphHttp: reading an answer', () => {
  it('gives status, headers as undici request() parsed them, bytes and text, and reuses the connection', async () => {
    const http = subgraph(1);
    const ctl = control();

    const first = await http.send(request('chunked'), ctl);
    const second = await http.send(request('chunked'), ctl);

    expect(first).toMatchObject({
      received: { status: 200, bytes: Buffer.byteLength(ANSWER), text: ANSWER, answer: JSON.parse(ANSWER) },
      unhealthy: false,
    });
    expect('received' in first && first.received.headers).toMatchObject({
      'content-type': 'application/json',
      'set-cookie': ['a=1', 'b=2'],
      'x-served-by': 'users-1',
      'transfer-encoding': 'chunked',
    });
    // The same answer both times, but for the Date header (the two may straddle a second).
    expect(withoutDate(second)).toEqual(withoutDate(first));
    expect(connections).toBe(1);
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(0);
  });

  it('skips a leading byte order mark, chunked (split across chunks) or with a content-length', async () => {
    const http = subgraph();
    for (const framing of ['bom-chunked', 'bom-length']) {
      const attempt = await http.send(request(framing), control());
      expect(attempt, framing).toMatchObject({ received: { bytes: Buffer.byteLength(ANSWER) + 3, text: ANSWER } });
    }
  });

  it('abandons an answer found over the limit without a content-length, and does not reuse its connection', async () => {
    const http = subgraph(1);
    const ctl = control();

    const attempt = await http.send(request('endless', 2048), ctl);

    expect(failureOf(attempt)).toEqual(TOO_LARGE_FOR_2048);
    expect(await http.send(request('chunked'), ctl)).toHaveProperty('received.text', ANSWER);
    expect(connections).toBe(2);
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(0);
  });

  it('abandons an answer whose content-length is over the limit without waiting for its body', async () => {
    const http = subgraph(1);
    const ctl = control();
    // Only if the content-length were ignored: the body never comes, the deadline ends the wait.
    const deadline = setTimeout(() => ctl.deadline.abort(new Error('waited for the body')), 2_000);

    const attempt = await http.send(request('announces', 2048), ctl);
    clearTimeout(deadline);

    expect(failureOf(attempt)).toEqual(TOO_LARGE_FOR_2048);
    expect(await http.send(request('chunked'), ctl)).toHaveProperty('received.text', ANSWER);
    expect(connections).toBe(2);
  });
});

describe('SubgraphHttp: answers cut off', () => {
  it('the deadline passing mid-body ends the attempt as a timeout, not retried, and closes the connection', async () => {
    const http = subgraph();
    const ctl = control(5);
    const arrived = headersArrive('stalls');

    const sent = http.send(request('stalls'), ctl);
    await arrived;
    ctl.deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    const attempt = await sent;

    expect(attempt).toEqual({
      failure: { code: 'GATEWAY_TIMEOUT', legacyCode: 'SUBGRAPH_TIMEOUT', what: 'did not answer within 3000 ms' },
      unhealthy: true,
    });
    expect(ctl.asked.count).toBe(0);
    await expect.poll(() => closed).toBe(1);
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(0);
  });

  it('a connection broken after the headers is not retried; one broken before any answer is', async () => {
    const http = subgraph();
    const after = control(5);
    const before = control(5);

    const brokenMidBody = await http.send(request('breaks'), after);
    const brokenBeforeAnswer = await http.send(request('refuses'), before);

    expect(brokenMidBody).toEqual({
      failure: {
        code: 'SUBREQUEST_HTTP_ERROR',
        legacyCode: 'SUBGRAPH_UNAVAILABLE',
        what: 'is unavailable (UND_ERR_SOCKET)',
        detail: { error: 'UND_ERR_SOCKET' },
      },
      unhealthy: true,
    });
    expect(after.asked.count).toBe(0);
    expect(failureOf(brokenBeforeAnswer)).toMatchObject({
      failure: { legacyCode: 'SUBGRAPH_UNAVAILABLE' },
      retryInMs: 5,
    });
    expect(before.asked.count).toBe(1);
  });

  it('a deadline passing while the attempt waits for a connection ends it then, not when one frees', async () => {
    const http = subgraph(1);
    const busy = control();
    const queued = control();
    const occupied = http.send(request('silent'), busy);
    await expect.poll(() => connections).toBe(1);

    const waiting = http.send(request('chunked'), queued);
    queued.deadline.abort();

    expect(failureOf(await waiting)).toHaveProperty('failure.code', 'GATEWAY_TIMEOUT');
    busy.deadline.abort();
    expect(failureOf(await occupied)).toHaveProperty('failure.code', 'GATEWAY_TIMEOUT');
    expect(getEventListeners(queued.signal, 'abort')).toHaveLength(0);
  });
});

describe('SubgraphHttp: a retryable status', () => {
  it('with a retry planned, leaves the body unread and closes its connection', async () => {
    const http = subgraph(1);
    const ctl = control(7);

    const attempt = await http.send(request('unavailable'), ctl);

    expect(attempt).toEqual({
      failure: {
        code: 'SUBREQUEST_HTTP_ERROR',
        legacyCode: 'SUBGRAPH_BAD_RESPONSE',
        what: 'answered HTTP 503',
        detail: { status: 503 },
      },
      unhealthy: true,
      retryInMs: 7,
    });
    await expect.poll(() => closed).toBe(1);
  });

  it('with none planned, reads it: a GraphQL answer passed on, the subgraph still unhealthy', async () => {
    const http = subgraph(1);

    const attempt = await http.send(request('unavailable'), control(undefined));

    expect(attempt).toMatchObject({ received: { status: 503, answer: { data: null } }, unhealthy: true });
    expect(closed).toBe(0);
  });
});
