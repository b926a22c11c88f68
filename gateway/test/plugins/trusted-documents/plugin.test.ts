import { rename, writeFile } from 'node:fs/promises';
import { ApolloServer, type GraphQLRequest, HeaderMap } from '@apollo/server';
import { manualClock } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayContext, GatewayEvent } from '../../../src/contract/index.js';
import { type TrustedDocumentsOptions, trustedDocuments } from '../../../src/plugins/trusted-documents/index.js';
import { captureLogger } from '../../helpers/captured-logger.js';
import { issueFields, optionsError } from '../helpers/options-error.js';
import { gatewayContext } from '../helpers/scope.js';
import { apolloManifest, manifestFile, sha } from './fixtures.js';

/**
 * The plugin inside a real Apollo Server (its request pipeline decides when `request.query`
 * is read), over a small schema whose resolvers count their calls: a refused operation
 * must run nothing. Over HTTP on every mount, with the gateway and real subgraphs:
 * tests/contract/trusted-documents-contract.test.ts.
 */
const typeDefs = 'type Query { user(id: ID!): User, me: User } type User { id: ID!, name: String }';
const GET_USER = 'query GetUser($id: ID!) { user(id: $id) { id name } }';
const ME = 'query Me { me { id } }';
const NOT_LISTED = '{ me { id name } }';

const servers: ApolloServer<GatewayContext>[] = [];
const plugins: { close?(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await Promise.all(plugins.splice(0).map((plugin) => plugin.close?.()));
});

async function serve(options: Partial<TrustedDocumentsOptions> & { manifest?: string }) {
  let resolved = 0;
  const events: GatewayEvent[] = [];
  const { manifest = apolloManifest([GET_USER, ME]), ...rest } = options;
  const plugin = trustedDocuments({
    manifestPath: await manifestFile(manifest),
    pollIntervalMs: 0,
    emit: (event) => events.push(event),
    ...rest,
  });
  plugins.push(plugin);
  const server = new ApolloServer<GatewayContext>({
    typeDefs,
    resolvers: {
      Query: {
        user: (_: unknown, { id }: { id: string }) => {
          resolved++;
          return { id, name: `name of ${id}` };
        },
        me: () => {
          resolved++;
          return { id: 'me', name: 'Me' };
        },
      },
    },
    plugins: plugin.apollo ? [plugin.apollo] : [],
  });
  await server.start();
  servers.push(server);
  const run = async (request: GraphQLRequest) => {
    const response = await server.executeOperation(request, { contextValue: gatewayContext() });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const { data, errors } = response.body.singleResult;
    return { status: response.http.status ?? 200, data, code: errors?.[0]?.extensions?.code, errors };
  };
  return { run, resolved: () => resolved, events, plugin };
}

/** A request as Apollo Server builds it from an HTTP POST body (or the same fields in a GET URL). */
function overHttp(body: Record<string, unknown>, method: 'POST' | 'GET' = 'POST'): GraphQLRequest {
  const params = Object.entries(body).map(([name, value]): [string, string] => [
    name,
    typeof value === 'string' ? value : JSON.stringify(value),
  ]);
  return {
    ...(typeof body.query === 'string' ? { query: body.query } : {}),
    ...(typeof body.operationName === 'string' ? { operationName: body.operationName } : {}),
    ...(body.variables ? { variables: body.variables as Record<string, unknown> } : {}),
    http: {
      method,
      headers: new HeaderMap(),
      search: method === 'GET' ? new URLSearchParams(params).toString() : '',
      body: method === 'POST' ? body : {},
    },
  };
}

const refused = (code: string) => ({ status: 400, data: undefined, code });
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('trustedDocuments in enforce mode (the default)', () => {
  it('runs manifest documents sent in full, byte-for-byte or with other whitespace', async () => {
    const { run } = await serve({});
    expect(await run({ query: GET_USER, variables: { id: 'u1' } })).toMatchObject({
      status: 200,
      data: { user: { id: 'u1', name: 'name of u1' } },
    });
    expect(await run({ query: 'query Me {\n  me {\n    id\n  }\n}\n' })).toMatchObject({ data: { me: { id: 'me' } } });
  });

  it('refuses any other document with 400 QUERY_NOT_IN_SAFELIST, running nothing', async () => {
    const { run, resolved } = await serve({});
    expect(await run({ query: NOT_LISTED })).toMatchObject(refused('QUERY_NOT_IN_SAFELIST'));
    // Renaming a trusted operation, or sending it with another one, makes it another document.
    expect(await run({ query: ME.replace('Me', 'Health') })).toMatchObject(refused('QUERY_NOT_IN_SAFELIST'));
    expect(await run({ query: `${ME} ${NOT_LISTED.replace('{', 'query X {')}`, operationName: 'Me' })).toMatchObject(
      refused('QUERY_NOT_IN_SAFELIST'),
    );
    expect(resolved()).toBe(0);
  });

  it('refuses a document that would not parse or validate the same way: nothing about the schema leaks', async () => {
    const { run } = await serve({});
    const broken = await run({ query: '{ me { id ' });
    const invalid = await run({ query: '{ me { nam } }' });
    expect([broken.code, invalid.code]).toEqual(['QUERY_NOT_IN_SAFELIST', 'QUERY_NOT_IN_SAFELIST']);
    expect(JSON.stringify(invalid.errors)).not.toContain('name');
  });

  it('runs a manifest operation sent by id: persistedQuery, documentId, doc_id, id, and over GET', async () => {
    const { run } = await serve({});
    const expected = { status: 200, data: { me: { id: 'me' } } };
    expect(await run({ extensions: persisted(sha(ME)) })).toMatchObject(expected);
    expect(await run(overHttp({ documentId: sha(ME) }))).toMatchObject(expected);
    expect(await run(overHttp({ documentId: `sha256:${sha(ME)}` }))).toMatchObject(expected);
    expect(await run(overHttp({ doc_id: sha(ME) }))).toMatchObject(expected);
    expect(await run(overHttp({ id: sha(ME) }))).toMatchObject(expected);
    expect(await run(overHttp({ documentId: sha(GET_USER), variables: { id: 'u2' } }, 'GET'))).toMatchObject({
      data: { user: { id: 'u2' } },
    });
  });

  it('refuses an unknown id with 400 PERSISTED_QUERY_NOT_IN_LIST, whatever channel carries it', async () => {
    const { run, resolved } = await serve({});
    const unknown = sha(NOT_LISTED);
    expect(await run({ extensions: persisted(unknown) })).toMatchObject(refused('PERSISTED_QUERY_NOT_IN_LIST'));
    expect(await run(overHttp({ documentId: unknown }))).toMatchObject(refused('PERSISTED_QUERY_NOT_IN_LIST'));
    expect(await run(overHttp({ doc_id: 'GetUser' }, 'GET'))).toMatchObject(refused('PERSISTED_QUERY_NOT_IN_LIST'));
    // An operation name naming a manifest operation changes nothing.
    expect(await run(overHttp({ documentId: unknown, operationName: 'Me' }))).toMatchObject(
      refused('PERSISTED_QUERY_NOT_IN_LIST'),
    );
    expect(resolved()).toBe(0);
  });

  it('checks the document that runs, not an id riding along with it', async () => {
    const { run, resolved } = await serve({});
    // Apollo's APQ would accept this pair if the hash matched the text; the text is what is checked.
    expect(await run({ query: NOT_LISTED, extensions: persisted(sha(ME)) })).toMatchObject(
      refused('QUERY_NOT_IN_SAFELIST'),
    );
    expect(await run(overHttp({ query: NOT_LISTED, documentId: sha(ME) }))).toMatchObject(
      refused('QUERY_NOT_IN_SAFELIST'),
    );
    expect(resolved()).toBe(0);
  });

  it('answers 400 BAD_REQUEST for ids that disagree or a persistedQuery of another shape', async () => {
    const { run } = await serve({});
    expect(await run({ ...overHttp({ documentId: sha(ME) }), extensions: persisted(sha(GET_USER)) })).toMatchObject(
      refused('BAD_REQUEST'),
    );
    expect(await run({ extensions: { persistedQuery: { version: 2, sha256Hash: sha(ME) } } })).toMatchObject(
      refused('BAD_REQUEST'),
    );
    expect(await run(overHttp({ documentId: 42 }))).toMatchObject(refused('BAD_REQUEST'));
  });
});

describe('trustedDocuments in allow-ids mode', () => {
  it('runs any full document, and manifest documents by id', async () => {
    const { run } = await serve({ mode: 'allow-ids' });
    expect(await run({ query: NOT_LISTED })).toMatchObject({ status: 200, data: { me: { id: 'me', name: 'Me' } } });
    expect(await run({ extensions: persisted(sha(ME)) })).toMatchObject({ data: { me: { id: 'me' } } });
  });

  it('refuses an id the manifest lacks, so a client never gets an id quietly ignored', async () => {
    const { run } = await serve({ mode: 'allow-ids' });
    expect(await run(overHttp({ documentId: 'nope' }))).toMatchObject(refused('PERSISTED_QUERY_NOT_IN_LIST'));
    expect(await run({ extensions: persisted(sha(NOT_LISTED)) })).toMatchObject(refused('PERSISTED_QUERY_NOT_IN_LIST'));
  });
});

describe('trustedDocuments with a Relay / Codegen map', () => {
  it('resolves the map ids, and enforces its documents', async () => {
    const { run } = await serve({ manifest: JSON.stringify({ 'me-1': ME }) });
    expect(await run(overHttp({ doc_id: 'me-1' }))).toMatchObject({ status: 200, data: { me: { id: 'me' } } });
    expect(await run({ query: ME })).toMatchObject({ status: 200 });
    expect(await run({ query: GET_USER, variables: { id: 'u1' } })).toMatchObject(refused('QUERY_NOT_IN_SAFELIST'));
  });
});

describe('trustedDocuments hot reload', () => {
  it('applies a rewritten manifest, keeps the old one when a rewrite is invalid, and reports both', async () => {
    const captured = captureLogger('debug');
    const path = await manifestFile(apolloManifest([ME]));
    const events: GatewayEvent[] = [];
    const clock = manualClock();
    /** One poll of the manifest, its reload included. */
    const poll = () => clock.advance(100);
    const plugin = trustedDocuments({
      manifestPath: path,
      pollIntervalMs: 100, // the least SUPERGRAPH_POLL_INTERVAL_MS allows, which the option shares
      clock,
      logger: captured.logger,
      emit: (event) => events.push(event),
    });
    plugins.push(plugin);
    const server = new ApolloServer<GatewayContext>({
      typeDefs,
      resolvers: { Query: { me: () => ({ id: 'me' }), user: (_: unknown, { id }: { id: string }) => ({ id }) } },
      plugins: plugin.apollo ? [plugin.apollo] : [],
    });
    await server.start();
    servers.push(server);
    const code = async (request: GraphQLRequest) => {
      const response = await server.executeOperation(request, { contextValue: gatewayContext() });
      return response.body.kind === 'single' ? response.body.singleResult.errors?.[0]?.extensions?.code : 'incremental';
    };
    expect(events).toEqual([{ type: 'trusted-documents-load', outcome: 'applied', documents: 1 }]);
    expect(await code({ extensions: persisted(sha(GET_USER)), variables: { id: 'u' } })).toBe(
      'PERSISTED_QUERY_NOT_IN_LIST',
    );

    // Written as deployments do: a new file renamed over the old one.
    await writeFile(`${path}.new`, apolloManifest([ME, GET_USER]));
    await rename(`${path}.new`, path);
    await poll();
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual({ type: 'trusted-documents-load', outcome: 'applied', documents: 2 });
    expect(await code({ extensions: persisted(sha(GET_USER)), variables: { id: 'u' } })).toBeUndefined();

    const secret = 'query Leak { user(id: "do-not-log-me") { id ';
    await writeFile(`${path}.new`, apolloManifest([ME, secret]));
    await rename(`${path}.new`, path);
    await poll();
    expect(events).toHaveLength(3);
    expect(events[2]).toMatchObject({ type: 'trusted-documents-load', outcome: 'rejected', documents: 2 });
    expect((events[2] as { reason: string }).reason).toMatch(
      /^manifest operations\[1\] \("Leak"\): body does not parse/,
    );
    // The previous manifest is still in force.
    expect(await code({ extensions: persisted(sha(GET_USER)), variables: { id: 'u' } })).toBeUndefined();
    expect(await code({ query: NOT_LISTED })).toBe('QUERY_NOT_IN_SAFELIST');
    expect(captured.lines.find((line) => line.level === 40)).toMatchObject({
      msg: 'trusted documents manifest rejected; the previous one stays in use',
      documents: 2,
    });
    expect(captured.raw.join('\n')).not.toContain('do-not-log-me');

    // Stopped polling: a later rewrite is never read.
    await plugin.close?.();
    expect(clock.scheduled).toBe(0);
    await writeFile(path, apolloManifest([ME]));
    await clock.advance(500);
    expect(events).toHaveLength(3);
  });
});

describe('trustedDocuments options', () => {
  it('names every bad option', () => {
    const error = optionsError('trusted-documents', () =>
      trustedDocuments({ manifestPath: '', mode: 'strict', pollIntervalMs: -1, extra: 1 } as never),
    );
    expect(issueFields(error)).toEqual(['extra', 'manifestPath', 'mode', 'pollIntervalMs']);
  });

  it('fails when the manifest cannot be read or is invalid, naming the file and each bad entry', async () => {
    const missing = optionsError('trusted-documents', () => trustedDocuments({ manifestPath: '/nonexistent/m.json' }));
    expect(missing.message).toContain('manifestPath (/nonexistent/m.json): cannot be read (ENOENT)');
    const path = await manifestFile(JSON.stringify({ a: '{ me { id } }', b: '{ me {', c: 1 }));
    const invalid = optionsError('trusted-documents', () => trustedDocuments({ manifestPath: path }));
    expect(issueFields(invalid)).toEqual([
      `manifestPath (${path}): manifest "b"`,
      `manifestPath (${path}): manifest "c"`,
    ]);
  });
});
