import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DASHBOARD_QUERY, expectedDashboard } from '@fedgw/subgraphs';
import { MOUNTS, type RawAnswer, rawRequest, subgraphUrlEnv } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * Answers compressed as the client's Accept-Encoding asks, on every mount: gzip or brotli
 * (gzip when both weigh the same), identity when refused or not asked for, never below
 * COMPRESSION_MIN_BYTES (1024 by default), `Vary: Accept-Encoding` on every JSON answer, and
 * none of it with COMPRESSION=false. Requests by node:http, so nothing decodes behind the test.
 */
const DASHBOARD = JSON.stringify({ query: DASHBOARD_QUERY });
const TYPENAME = JSON.stringify({ query: '{ __typename }' });
const JSON_HEADERS = { 'content-type': 'application/json' };
const subgraphs = subgraphsForFile();

const post = (url: string, body: string, acceptEncoding?: string) =>
  rawRequest(url, {
    headers: { ...JSON_HEADERS, ...(acceptEncoding !== undefined && { 'accept-encoding': acceptEncoding }) },
    body,
  });

function decoded(answer: RawAnswer): unknown {
  const coding = answer.headers['content-encoding'];
  const bytes =
    coding === 'gzip' ? gunzipSync(answer.body) : coding === 'br' ? brotliDecompressSync(answer.body) : answer.body;
  return JSON.parse(bytes.toString('utf8'));
}

function varyNames(answer: RawAnswer): string[] {
  return String(answer.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

describe.each(MOUNTS)('compression on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => subgraphUrlEnv(subgraphs()));

  it.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'gzip'],
    ['br, gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.5, br', 'br'],
    ['gzip;q=0.2, *;q=0.8', 'br'],
    ['x-gzip', 'gzip'],
  ])('Accept-Encoding %j: a large answer comes in %s, whole and correct', async (acceptEncoding, coding) => {
    const answer = await post(gateway().url, DASHBOARD, acceptEncoding);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(coding);
    expect(answer.headers['content-length']).toBeUndefined();
    expect(varyNames(answer)).toContain('accept-encoding');
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(JSON.stringify({ data: expectedDashboard() })) / 4);
    expect(decoded(answer)).toEqual({ data: expectedDashboard() });
  });

  it('many large answers compressed at once all arrive whole (the compressor waits for slow sockets, never stalls)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => post(gateway().url, DASHBOARD, i % 2 ? 'gzip' : 'br')),
    );
    for (const answer of answers) expect(decoded(answer)).toEqual({ data: expectedDashboard() });
  });

  it.each([
    ['no Accept-Encoding', undefined],
    ['identity', 'identity'],
    ['an empty one', ''],
    ['gzip;q=0, br;q=0', 'gzip;q=0, br;q=0'],
    ['*;q=0', '*;q=0'],
    ['identity over gzip', 'gzip;q=0.5, identity'],
    ['a coding we do not have', 'compress'],
  ])('%s: the answer is sent as it is, with its length and Vary', async (_name, acceptEncoding) => {
    const answer = await post(gateway().url, DASHBOARD, acceptEncoding);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(varyNames(answer)).toContain('accept-encoding');
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ data: expectedDashboard() });
  });

  it('an answer below COMPRESSION_MIN_BYTES (1024) is not compressed, and still says Vary', async () => {
    const answer = await post(gateway().url, TYPENAME, 'gzip, br');
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeLessThan(1024);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(varyNames(answer)).toContain('accept-encoding');
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ data: { __typename: 'Query' } });
  });

  it('a coded error answer is compressed like any other', async () => {
    const answer = await post(gateway().url, JSON.stringify({ query: `{ ${'nope '.repeat(400)}}` }), 'gzip');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-encoding']).toBe('gzip');
    const { errors } = decoded(answer) as { errors: { extensions: { code: string } }[] };
    expect(errors[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('a HEAD request gets no compressed body', async () => {
    const answer = await rawRequest(`${gateway().url}?query=${encodeURIComponent('{ __typename }')}`, {
      method: 'HEAD',
      headers: { 'accept-encoding': 'gzip', 'apollo-require-preflight': 'true' },
    });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.length).toBe(0);
  });

  it('an SSE stream (text/event-stream) is never compressed: each event goes out as it comes', async () => {
    const answer = await rawRequest(gateway().url, {
      headers: { ...JSON_HEADERS, accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
      body: DASHBOARD,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    // graphql-sse says `none` itself, so proxies leave the stream alone too.
    expect(answer.headers['content-encoding'] ?? 'none').toBe('none');
    expect(answer.body.toString('utf8')).toContain('event: next');
    expect(answer.body.toString('utf8')).toContain('event: complete');
  });
});

describe.each(MOUNTS)('COMPRESSION=false on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()), COMPRESSION: 'false' }));

  it('a large answer to a client that accepts gzip and br is sent as it is, without Vary', async () => {
    const answer = await post(gateway().url, DASHBOARD, 'gzip, br');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ data: expectedDashboard() });
  });
});

describe.each(MOUNTS)('COMPRESSION_MIN_BYTES on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()), COMPRESSION_MIN_BYTES: '0' }));

  it('at 0, even the smallest answer is compressed', async () => {
    const answer = await post(gateway().url, TYPENAME, 'gzip');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(decoded(answer)).toEqual({ data: { __typename: 'Query' } });
  });
});
