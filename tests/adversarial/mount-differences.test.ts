import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { MOUNTS, postGraphQL, subgraphUrlEnv } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

// Class: a difference between mounts that a client can see and use. Every mount must answer
// the same: one Host header (RFC 9112: two get 400), the gateway's path exactly as configured
// (a path-based ingress rule must not be slipped past with `/GRAPHQL` or `/graphql/`), BODY_LIMIT
// and Content-Encoding on the SSE transport's bodies as on every other, a JSON
// body with `__proto__` refused the same way, MAX_CHARACTERS counting characters (code
// points), not UTF-16 units, a GET with a body refused (Express parsed it, Fastify ignored it),
// and a request Node's parser cannot read answered with a coded body (Node's was empty,
// Fastify's its own shape). Any Accept gets an answer (urql's list was an empty 404 from
// graphql-sse), and a huge one is read within bounds.

const subgraphs = subgraphsForFile();

/** One raw HTTP/1.1 exchange: the status line's code. */
function rawStatus(url: string, head: string, body = ''): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (match) {
        resolve(Number(match[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.write(`${head}\r\n\r\n${body}`);
  });
}

/** One raw HTTP/1.1 exchange on a connection the server closes: status and JSON body. */
function rawExchange(url: string, request: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      const text = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      try {
        resolve({ status, body: JSON.parse(text) });
      } catch {
        resolve({ status, body: text });
      }
    });
    socket.on('error', reject);
    socket.write(request);
  });
}

const GET_BODY_REFUSED = {
  errors: [
    {
      message: 'A GET request must not have a body: send the operation in the query string, or POST it.',
      extensions: { code: 'BAD_REQUEST' },
    },
  ],
};
const MALFORMED = { errors: [{ message: 'Malformed HTTP request.', extensions: { code: 'BAD_REQUEST' } }] };
const HEADERS_TOO_LARGE = {
  errors: [{ message: 'The request headers are too large.', extensions: { code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' } }],
};

describe.each(MOUNTS)('what a client sees is the same on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()), MAX_CHARACTERS: '10000' }));
  const body = JSON.stringify({ query: '{ user(id: "user-1") { id } }' });
  const post = (path: string, hosts: string[]) =>
    rawStatus(
      gateway().url,
      [
        `POST ${path} HTTP/1.1`,
        ...hosts.map((host) => `Host: ${host}`),
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
      ].join('\r\n'),
      body,
    );

  it('two Host headers get 400; one is served', async () => {
    const { host, pathname } = new URL(gateway().url);
    expect(await post(pathname, [host])).toBe(200);
    expect(await post(pathname, [host, 'evil.example'])).toBe(400);
  });

  it('only the configured path is the gateway: /GRAPHQL and /graphql/ are 404', async () => {
    const { host } = new URL(gateway().url);
    expect(await post('/GRAPHQL', [host])).toBe(404);
    expect(await post('/graphql/', [host])).toBe(404);
  });

  it('__proto__ (or constructor.prototype) in a JSON body is refused, 400 BAD_REQUEST', async () => {
    for (const variables of ['{"__proto__":{"x":1}}', '{"a":{"constructor":{"prototype":{"x":1}}}}']) {
      const response = await fetch(gateway().url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"query":"query Q($a: String) { __typename }","variables":${variables}}`,
      });
      expect(response.status, variables).toBe(400);
      const answer = (await response.json()) as { errors: { extensions: { code: string } }[] };
      expect(answer.errors[0]?.extensions.code).toBe('BAD_REQUEST');
    }
  });

  it('a graphql-sse POST is held to BODY_LIMIT and decoded like any body (Express read it without a limit)', async () => {
    const over = await fetch(gateway().url, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }', variables: { padding: 'x'.repeat(3 * 1024 * 1024) } }),
    });
    expect(over.status).toBe(413);
    const answer = (await over.json()) as { errors: { extensions: { code: string } }[] };
    expect(answer.errors[0]?.extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const zipped = await fetch(gateway().url, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ query: '{ user(id: "user-1") { id } }' })),
    });
    expect(zipped.status).toBe(200);
    expect(await zipped.text()).toContain('"user-1"');
  });

  it("every Accept gets an answer, never graphql-sse's empty 404 nor a 500, and a huge one costs no more", async () => {
    const ask = async (accept: string) => {
      const started = performance.now();
      const response = await fetch(gateway().url, {
        method: 'POST',
        headers: { accept, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ user(id: "user-1") { id } }' }),
      });
      const text = await response.text();
      return { status: response.status, text, ms: performance.now() - started };
    };
    // urql's default list: JSON (was an empty 404 from graphql-sse, which wants text/event-stream alone).
    const urql = await ask(
      'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
    );
    expect(urql.status).toBe(200);
    expect(JSON.parse(urql.text)).toEqual({ data: { user: { id: 'user-1' } } });
    // Only a transport a query cannot have: a coded 406.
    const multipartOnly = await ask('multipart/mixed');
    expect(multipartOnly.status).toBe(406);
    expect(JSON.parse(multipartOnly.text).errors[0].extensions.code).toBe('NOT_ACCEPTABLE');
    // 12 KB of ranges (under Node's header cap): only the first ones are read (the event stream
    // at the end is not), and plain HTTP answers JSON.
    const long = await ask(`${'text/plain;q=0.1, '.repeat(700)}text/event-stream, application/json`);
    expect(long.status).toBe(200);
    expect(JSON.parse(long.text)).toEqual({ data: { user: { id: 'user-1' } } });
    // 100 KB: over the header cap, a coded 431 at once; never a 500.
    const huge = await ask(`text/event-stream;q=0.5, ${'x/y;a=b, '.repeat(12_000)}application/json`);
    expect(huge.text.length).toBeLessThan(1000);
    expect([200, 431]).toContain(huge.status);
    expect(
      huge.status === 200 || JSON.parse(huge.text).errors[0].extensions.code === 'REQUEST_HEADER_FIELDS_TOO_LARGE',
    ).toBe(true);
    // No slower than a normal request by more than a loaded machine's noise.
    expect(huge.ms).toBeLessThan(urql.ms + 2000);
    expect(long.ms).toBeLessThan(urql.ms + 2000);
  });

  it('MAX_CHARACTERS counts characters: 9,950 emoji (19,900 UTF-16 units) fit a limit of 10,000', async () => {
    const emoji = '😀'.repeat(9950);
    const fits = await postGraphQL(gateway().url, { query: `{ user(id: "${emoji}") { id } }` });
    expect(fits.status, fits.text.slice(0, 200)).toBe(200);
    expect(fits.body.data).toEqual({ user: null });
    const over = await postGraphQL(gateway().url, { query: `{ user(id: "${'😀'.repeat(10_000)}") { id } }` });
    expect(over.status).toBe(400);
    expect(over.body.errors?.[0]?.message).toMatch(/has 10023 characters; the limit is 10000/);
  });

  it.each([
    ['a chunked body', 'Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'],
    ['an empty chunked body', 'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a Content-Length body', 'Content-Type: application/json\r\nContent-Length: 5\r\n\r\nhello'],
    ['a body on the graphql-sse transport', 'Accept: text/event-stream\r\nContent-Length: 2\r\n\r\n{}'],
  ])('a GET with %s is refused, 400 BAD_REQUEST', async (_name, rest) => {
    const { host, pathname } = new URL(gateway().url);
    const head = `GET ${pathname}?query=%7B__typename%7D HTTP/1.1\r\nHost: ${host}\r\nApollo-Require-Preflight: 1\r\nConnection: close\r\n`;
    expect(await rawExchange(gateway().url, head + rest)).toEqual({ status: 400, body: GET_BODY_REFUSED });
    // Content-Length: 0, which some clients send on every request, is no body.
    expect(await rawExchange(gateway().url, `${head}Content-Length: 0\r\n\r\n`)).toEqual({
      status: 200,
      body: { data: { __typename: 'Query' } },
    });
  });

  it.each([
    ['a bad chunk size', 'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', 400, MALFORMED],
    [
      'Transfer-Encoding with Content-Length',
      'Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      400,
      MALFORMED,
    ],
    // Past Node's 16 KiB of headers.
    ['headers too large', `X-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`, 431, HEADERS_TOO_LARGE],
  ])("a request Node's parser refuses (%s) gets a coded body and Node's status", async (_name, rest, status, body) => {
    const { host, pathname } = new URL(gateway().url);
    const head = `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n`;
    expect(await rawExchange(gateway().url, head + rest)).toEqual({ status, body });
  });
});
