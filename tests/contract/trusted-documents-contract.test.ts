import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MOUNTS,
  postGraphQL,
  ROOT,
  type RunningGateway,
  type RunningSubgraph,
  send,
  startGateway,
  startSubgraphs,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Trusted documents over real HTTP on every mount, against real subgraphs behind a
 * forwarding server that counts what reaches them: a refused operation must cost no
 * subgraph request. Edge cases of ids and manifests are unit-tested beside the plugin
 * (gateway/test/plugins/trusted-documents/).
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** The README's example manifest (docs/examples/trusted-documents/manifest.json) holds this one. */
const EXAMPLE_MANIFEST = `${ROOT}docs/examples/trusted-documents/manifest.json`;
const GET_USER = 'query GetUser($id: ID!) { user(id: $id) { id name email } }';
const TOP = 'query Top { topProducts(first: 2) { id } }';
const NOT_LISTED = '{ topProducts(first: 3) { id name price } }';

function apolloManifest(bodies: readonly string[]): string {
  return JSON.stringify({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: bodies.map((body) => ({ id: sha(body), name: body.split(/[ ($]/)[1], type: 'query', body })),
  });
}

async function manifestFile(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'trusted-documents-')), 'manifest.json');
  await writeFile(path, text);
  return path;
}

let subgraphs: Record<'users' | 'products' | 'reviews', RunningSubgraph>;
/** One counting forwarder per subgraph; the gateway is pointed at these. */
let forwarders: TestHttpServer[] = [];
const subgraphRequests = () => forwarders.reduce((total, server) => total + server.requests.length, 0);

beforeAll(async () => {
  subgraphs = await startSubgraphs();
  forwarders = await Promise.all(
    Object.values(subgraphs).map((subgraph) =>
      startTestHttpServer((_request, response, body) => {
        void fetch(subgraph.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(await answer.text());
        });
      }),
    ),
  );
});
afterAll(async () => {
  await Promise.all(forwarders.map((server) => server.close()));
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});

function subgraphEnv(): Record<string, string> {
  const names = Object.keys(subgraphs);
  return Object.fromEntries(names.map((name, i) => [`SUBGRAPH_${name.toUpperCase()}_URL`, forwarders[i]?.url ?? '']));
}

const postBody = (url: string, body: Record<string, unknown>) =>
  send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const byId = (url: string, id: string, variables?: Record<string, unknown>) =>
  postBody(url, { extensions: { persistedQuery: { version: 1, sha256Hash: id } }, variables });
const byDocumentId = (url: string, documentId: string, variables?: Record<string, unknown>) =>
  postBody(url, { documentId, variables });
const byGet = (url: string, params: Record<string, string>) =>
  send(`${url}?${new URLSearchParams(params)}`, { headers: { 'apollo-require-preflight': 'true' } });

describe.each(MOUNTS)('trusted documents on %s', (mount) => {
  describe('enforce (the default with a manifest)', () => {
    let gateway: RunningGateway;
    let path: string;
    beforeAll(async () => {
      path = await manifestFile(await readFile(EXAMPLE_MANIFEST, 'utf8'));
      gateway = await startGateway(mount, {
        ...subgraphEnv(),
        TRUSTED_DOCUMENTS: path,
        SUPERGRAPH_POLL_INTERVAL_MS: '100',
      });
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('runs a manifest operation sent in full, by persistedQuery id, by documentId and over GET', async () => {
      const before = subgraphRequests();
      const expected = { data: { user: { id: 'user-5', name: expect.any(String), email: expect.any(String) } } };
      const full = await postGraphQL(gateway.url, { query: GET_USER, variables: { id: 'user-5' } });
      const persisted = await byId(gateway.url, sha(GET_USER), { id: 'user-5' });
      const documentId = await byDocumentId(gateway.url, `sha256:${sha(GET_USER)}`, { id: 'user-5' });
      const get = await byGet(gateway.url, { documentId: sha(GET_USER), variables: '{"id":"user-5"}' });
      for (const result of [full, persisted, documentId, get]) {
        expect(result.status).toBe(200);
        expect(result.body).toEqual(expected);
      }
      // The counter sees what reaches the subgraphs (so "unchanged" below means something).
      expect(subgraphRequests()).toBe(before + 4);
    });

    it('refuses any other document with 400 QUERY_NOT_IN_SAFELIST before any subgraph request', async () => {
      const before = subgraphRequests();
      const other = await postGraphQL(gateway.url, { query: NOT_LISTED });
      // The same operation under another name is another document.
      const renamed = await postGraphQL(gateway.url, {
        query: GET_USER.replace('GetUser', 'Health'),
        variables: { id: 'user-5' },
      });
      // A manifest id riding along does not vouch for the text sent with it.
      const smuggled = await postBody(gateway.url, { query: NOT_LISTED, documentId: sha(GET_USER) });
      const get = await byGet(gateway.url, { query: NOT_LISTED });
      for (const result of [other, renamed, smuggled, get]) {
        expect(result.status).toBe(400);
        expect(result.body.errors?.[0]?.extensions?.code).toBe('QUERY_NOT_IN_SAFELIST');
        expect(result.body.data).toBeUndefined();
      }
      expect(subgraphRequests()).toBe(before);
    });

    it('refuses an unknown id with 400 PERSISTED_QUERY_NOT_IN_LIST before any subgraph request', async () => {
      const before = subgraphRequests();
      const results = [
        await byId(gateway.url, sha(NOT_LISTED)),
        await byDocumentId(gateway.url, 'unknown-id'),
        await byGet(gateway.url, { extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'x' } }) }),
      ];
      for (const result of results) {
        expect(result.status).toBe(400);
        expect(result.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
      }
      expect(subgraphRequests()).toBe(before);
    });

    it('reloads a rewritten manifest, and keeps it when the next rewrite is invalid', async () => {
      expect((await byId(gateway.url, sha(TOP))).body.errors?.[0]?.extensions?.code).toBe(
        'PERSISTED_QUERY_NOT_IN_LIST',
      );
      await writeFile(`${path}.new`, apolloManifest([GET_USER, TOP]));
      await rename(`${path}.new`, path);
      await expect.poll(async () => (await byId(gateway.url, sha(TOP))).status, { timeout: 10_000 }).toBe(200);
      expect((await byId(gateway.url, sha(TOP))).body).toEqual({
        data: { topProducts: [{ id: expect.any(String) }, { id: expect.any(String) }] },
      });

      await writeFile(path, '{"format": "apollo-persisted-query-manifest", "version": 1, "operations": [{"id": "x"');
      await expect
        .poll(
          () => gateway.logLines().some((line) => String(line.msg).startsWith('trusted documents manifest rejected')),
          {
            timeout: 10_000,
          },
        )
        .toBe(true);
      expect((await byId(gateway.url, sha(TOP))).status).toBe(200);
      expect((await postGraphQL(gateway.url, { query: NOT_LISTED })).status).toBe(400);
    });
  });

  describe('allow-ids with a Relay / Codegen map', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(mount, {
        ...subgraphEnv(),
        TRUSTED_DOCUMENTS: await manifestFile(JSON.stringify({ 'top-v1': TOP })),
        TRUSTED_DOCUMENTS_MODE: 'allow-ids',
      });
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('runs map ids and any full document, and refuses an unknown id', async () => {
      const id = await postBody(gateway.url, { doc_id: 'top-v1' });
      expect(id.status).toBe(200);
      expect(id.body.data?.topProducts).toHaveLength(2);
      expect((await postGraphQL(gateway.url, { query: NOT_LISTED })).body.data?.topProducts).toHaveLength(3);
      const unknown = await byDocumentId(gateway.url, 'top-v2');
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    });
  });
});

describe('an invalid manifest at startup', () => {
  it('stops the gateway with a config error naming each bad entry', async () => {
    const path = await manifestFile(
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: 'not-the-hash', name: 'GetUser', type: 'query', body: GET_USER }],
      }),
    );
    const error = await startGateway('fastify', { ...subgraphEnv(), TRUSTED_DOCUMENTS: path }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain('exited with 1 before it was ready');
    expect(error?.message).toContain('ERR_GATEWAY_PLUGIN_OPTIONS_INVALID');
    expect(error?.message).toContain('manifest operations[0] (\\"GetUser\\"): id is not the sha256 of its body');
  });
});
