import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSubgraph, startSubgraph } from '../src/serve.js';
import { usersSubgraph } from '../src/users/subgraph.js';

type Body = { data?: unknown; extensions?: Record<string, unknown> };
const ftv1Of = async (response: Response) => ((await response.json()) as Body).extensions?.ftv1;

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('startSubgraph over HTTP', () => {
  let subgraph: RunningSubgraph;
  beforeAll(async () => {
    subgraph = await startSubgraph({ ...usersSubgraph, port: 0 });
  });
  afterAll(() => subgraph.close());

  it('listens on an ephemeral port and answers a query, passing headers to resolvers', async () => {
    expect(subgraph.port).toBeGreaterThan(0);
    expect(subgraph.url).toBe(`http://127.0.0.1:${subgraph.port}/graphql`);
    const response = await post(subgraph.url, JSON.stringify({ query: '{ me { id } user(id: "user-5") { id } }' }), {
      'x-user-id': 'user-9',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: { me: { id: 'user-9' }, user: { id: 'user-5' } },
    });
  });

  it('serves GET /graphql (with the CSRF preflight header)', async () => {
    const response = await fetch(`${subgraph.url}?query=${encodeURIComponent('{ user(id: "user-1") { id } }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(await response.json()).toEqual({ data: { user: { id: 'user-1' } } });
  });

  it('answers GET /health with 200 {"status":"ok"}', async () => {
    const response = await fetch(new URL('/health', subgraph.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('rejects malformed JSON with 400 and unknown paths with 404', async () => {
    const response = await post(subgraph.url, '{"query": ');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      errors: [{ extensions: { code: 'BAD_REQUEST' } }],
    });
    expect((await fetch(new URL('/nope', subgraph.url))).status).toBe(404);
  });

  it('does not add ftv1 traces unless inlineTrace is on', async () => {
    const response = await post(subgraph.url, JSON.stringify({ query: '{ me { id } }' }), {
      'apollo-federation-include-trace': 'ftv1',
    });
    expect(await ftv1Of(response)).toBeUndefined();
  });
});

describe('startSubgraph with countHeader', () => {
  let subgraph: RunningSubgraph;
  beforeAll(async () => {
    subgraph = await startSubgraph({ ...usersSubgraph, port: 0, countHeader: 'Source' });
  });
  afterAll(() => subgraph.close());

  it('counts /graphql requests by the header value and serves the counts at GET /header-counts', async () => {
    const query = JSON.stringify({ query: '{ user(id: "user-1") { id } }' });
    await post(subgraph.url, query, { source: 'gateway' });
    await post(subgraph.url, query, { source: 'gateway' });
    await post(subgraph.url, query, { source: 'other' });
    await post(subgraph.url, query);
    const response = await fetch(new URL('/header-counts', subgraph.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ header: 'source', counts: { gateway: 2, other: 1 }, missing: 1 });
  });

  it('has no /header-counts without countHeader', async () => {
    const plain = await startSubgraph({ ...usersSubgraph, port: 0 });
    try {
      expect((await fetch(new URL('/header-counts', plain.url))).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('startSubgraph options', () => {
  it('delays each GraphQL response by delayMs, but not /health', async () => {
    const slow = await startSubgraph({ ...usersSubgraph, port: 0, delayMs: 150 });
    try {
      const started = performance.now();
      let answered = false;
      const graphql = post(slow.url, JSON.stringify({ query: '{ user(id: "user-1") { id } }' })).then((response) => {
        answered = true;
        return response;
      });
      // /health, asked after the query, answers while the query is still delayed.
      expect((await fetch(new URL('/health', slow.url))).ok).toBe(true);
      expect(answered).toBe(false);
      expect(await (await graphql).json()).toEqual({ data: { user: { id: 'user-1' } } });
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await slow.close();
    }
  });

  it('adds ftv1 traces when inlineTrace is true', async () => {
    const traced = await startSubgraph({ ...usersSubgraph, port: 0, inlineTrace: true });
    try {
      const response = await post(traced.url, JSON.stringify({ query: '{ me { id } }' }), {
        'apollo-federation-include-trace': 'ftv1',
      });
      expect(typeof (await ftv1Of(response))).toBe('string');
    } finally {
      await traced.close();
    }
  });

  it('fails with an error naming the subgraph when the port is taken', async () => {
    const first = await startSubgraph({ ...usersSubgraph, port: 0 });
    try {
      await expect(startSubgraph({ ...usersSubgraph, port: first.port })).rejects.toThrow(
        `users subgraph cannot listen on 127.0.0.1:${first.port}`,
      );
    } finally {
      await first.close();
    }
  });

  it('rejects invalid options with an error naming them', async () => {
    await expect(startSubgraph({ ...usersSubgraph, port: -1 })).rejects.toThrow(/port/);
    await expect(startSubgraph({ ...usersSubgraph, delayMs: Number.NaN })).rejects.toThrow(/delayMs/);
  });
});
