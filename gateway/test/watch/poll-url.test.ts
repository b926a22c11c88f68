import { eventually, manualClock, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { FetchTextError, fetchText, pollUrl, type UrlPoller } from '../../src/watch/poll-url.js';

/**
 * A real server holding one document: 200 with its ETag, 304 when `If-None-Match`
 * matches. `document.text`/`etag` can change between requests.
 */
async function documentServer(document: { text: string; etag?: string }): Promise<TestHttpServer> {
  return startTestHttpServer((request, response) => {
    if (document.etag && request.headers['if-none-match'] === document.etag) {
      response.writeHead(304).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain', ...(document.etag ? { etag: document.etag } : {}) });
    response.end(document.text);
  });
}

const servers: TestHttpServer[] = [];
const pollers: UrlPoller[] = [];
afterEach(async () => {
  for (const poller of pollers.splice(0)) poller.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(document: { text: string; etag?: string }) {
  const server = await documentServer(document);
  servers.push(server);
  // A token in the query string, as a signed artifact URL has: it must never reach an error.
  return { server, url: `${server.url}?token=s3cr3t` };
}

const limits = { timeoutMs: 2_000, maxBytes: 1024 };

describe('fetchText', () => {
  it('returns the body and its ETag, then 304 as "not modified" when the ETag still matches', async () => {
    const { server, url } = await serve({ text: 'v1', etag: '"a"' });
    expect(await fetchText({ url, ...limits })).toEqual({ modified: true, text: 'v1', etag: '"a"' });
    expect(await fetchText({ url, ...limits }, '"a"')).toEqual({ modified: false });
    expect(await fetchText({ url, ...limits }, '"old"')).toEqual({ modified: true, text: 'v1', etag: '"a"' });
    expect(server.requests.map((request) => request.headers['if-none-match'])).toEqual([undefined, '"a"', '"old"']);
  });

  it('skips a leading byte order mark, chunked or with a content-length', async () => {
    const { server, url } = await serve({ text: 'v1' });
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    server.respondWith((_q, r) => {
      r.writeHead(200);
      r.write(bom);
      r.end('type Query { a: Int }');
    });
    expect(await fetchText({ url, ...limits })).toMatchObject({ modified: true, text: 'type Query { a: Int }' });
    server.respondWith((_q, r) =>
      r.writeHead(200, { 'content-length': 24 }).end(Buffer.concat([bom, Buffer.from('type Query { a: Int }')])),
    );
    expect(await fetchText({ url, ...limits })).toMatchObject({ modified: true, text: 'type Query { a: Int }' });
  });

  it.each([
    ['an error status', 'HTTP 503', (s: TestHttpServer) => s.respondWith((_q, r) => r.writeHead(503).end('down'))],
    [
      'a body over the limit',
      'larger than 1024 bytes',
      (s: TestHttpServer) => s.respondWith((_q, r) => r.writeHead(200).end('x'.repeat(5000))),
    ],
    [
      'a body announced over the limit (refused unread: the rest never comes)',
      'larger than 1024 bytes',
      (s: TestHttpServer) => s.respondWith((_q, r) => r.writeHead(200, { 'content-length': 5000 }).write('x')),
    ],
    [
      'a redirect',
      'HTTP 302',
      (s: TestHttpServer) => s.respondWith((_q, r) => r.writeHead(302, { location: '/' }).end()),
    ],
  ])('fails on %s with a reason that does not show the URL', async (_name, reason, setup) => {
    const { server, url } = await serve({ text: 'v1' });
    setup(server);
    const error = await fetchText({ url, ...limits }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchTextError);
    expect((error as Error).message).toBe(reason);
  });

  it('gives up after the timeout when the server never answers', async () => {
    const { server, url } = await serve({ text: 'v1' });
    server.respondWith(() => {}); // headers never sent
    const error = await fetchText({ url, timeoutMs: 200, maxBytes: 1024 }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('no answer within 200 ms');
  });

  it('names a refused connection by its code, not its address', async () => {
    const { server, url } = await serve({ text: 'v1' });
    await server.close();
    servers.splice(0);
    const error = await fetchText({ url, ...limits }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchTextError);
    expect((error as Error).message).toBe('ECONNREFUSED');
  });
});

describe('pollUrl', () => {
  it('sends If-None-Match each poll, reports a new document once, then polls with its ETag', async () => {
    const document = { text: 'v1', etag: '"1"' };
    const { server, url } = await serve(document);
    const changes: string[] = [];
    const errors: unknown[] = [];
    pollers.push(
      pollUrl({
        url,
        ...limits,
        intervalMs: 20,
        initial: { text: 'v1', etag: '"1"' },
        onChange: (text) => {
          changes.push(text);
        },
        onError: (error) => errors.push(error),
      }),
    );
    await eventually(() => expect(server.requests.length).toBeGreaterThanOrEqual(3));
    expect(changes).toEqual([]);
    expect(new Set(server.requests.map((request) => request.headers['if-none-match']))).toEqual(new Set(['"1"']));

    document.text = 'v2';
    document.etag = '"2"';
    await eventually(() => expect(changes).toEqual(['v2']));
    const after = server.requests.length;
    await eventually(() => expect(server.requests.length).toBeGreaterThanOrEqual(after + 3));
    expect(server.requests.at(-1)?.headers['if-none-match']).toBe('"2"');
    expect(changes).toEqual(['v2']);
    expect(errors).toEqual([]);
  });

  it('without ETags, reports only a body that changed', async () => {
    const document: { text: string } = { text: 'v1' };
    const { server, url } = await serve(document);
    const changes: string[] = [];
    pollers.push(
      pollUrl({
        url,
        ...limits,
        intervalMs: 20,
        initial: { text: 'v1' },
        onChange: (text) => {
          changes.push(text);
        },
        onError: () => {},
      }),
    );
    await eventually(() => expect(server.requests.length).toBeGreaterThanOrEqual(3));
    expect(changes).toEqual([]);
    document.text = 'v2';
    await eventually(() => expect(changes).toEqual(['v2']));
  });

  it('reports failures to onError and recovers when the server does', async () => {
    const document = { text: 'v1', etag: '"1"' };
    const { server, url } = await serve(document);
    server.respondWith((_q, r) => r.writeHead(500).end());
    const changes: string[] = [];
    const errors: Error[] = [];
    pollers.push(
      pollUrl({
        url,
        ...limits,
        intervalMs: 20,
        initial: { text: 'v1', etag: '"1"' },
        onChange: (text) => {
          changes.push(text);
        },
        onError: (error) => errors.push(error as Error),
      }),
    );
    await eventually(() => expect(errors.length).toBeGreaterThan(0));
    expect(errors[0]?.message).toBe('HTTP 500');
    server.respondWith((_q, r) => r.writeHead(200, { etag: '"2"' }).end('v2'));
    await eventually(() => expect(changes).toEqual(['v2']));
  });

  it('stops polling once closed', async () => {
    const { server, url } = await serve({ text: 'v1', etag: '"1"' });
    const clock = manualClock();
    const poller = pollUrl({ url, ...limits, intervalMs: 20, clock, onChange: () => {}, onError: () => {} });
    await clock.advance(40); // two polls, each over (answered) before the next
    expect(server.requests).toHaveLength(2);
    poller.close();
    expect(clock.scheduled).toBe(0);
    await clock.advance(200);
    expect(server.requests).toHaveLength(2);
  });
});
