import { json } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import type { FetchedSubgraphResult, GatewayPlugin, SubgraphResult } from '../src/contract/index.js';
import { captureLogger } from './helpers/captured-logger.js';
import { dataSources } from './helpers/data-source.js';
import { incomingOperation } from './helpers/operation.js';

/**
 * The subgraph hooks that need I/O (an entity cache backed by Redis): `onSubgraphRequest` may
 * answer with a Promise, and `aroundSubgraphFetch` wraps the fetch itself, against a real server.
 */
const sources = dataSources();
const { startServer } = sources;
const createSource = (...args: Parameters<typeof sources.createSource>) => sources.createSource(...args).source;
const ROOT_QUERY = '{ me { id } }';
const ENTITY_QUERY = 'query($representations:[_Any!]!){_entities(representations:$representations){...on User{name}}}';

const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5));

describe('onSubgraphRequest answering asynchronously', () => {
  it('a Promise of an answer skips the subgraph; a Promise of undefined goes on to the next hook', async () => {
    const server = await startServer(json({ data: { me: { id: 'from-subgraph' } } }));
    const seen: string[] = [];
    const goesOn: GatewayPlugin = {
      name: 'goes-on',
      onSubgraphRequest: ({ headers }) =>
        later(undefined).then(() => {
          headers['x-tenant'] = 't1';
          seen.push('goes-on');
        }),
    };
    const answers: GatewayPlugin = {
      name: 'answers',
      onSubgraphRequest: ({ headers }) => {
        seen.push(`answers saw ${headers['x-tenant']}`);
        return later({ data: { me: { id: 'from-plugin' } } });
      },
      onSubgraphResponse: ({ answeredBy }) => {
        seen.push(`response by ${answeredBy}`);
      },
    };
    const source = createSource(server.url, { plugins: [goesOn, answers] });

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(response.data).toEqual({ me: { id: 'from-plugin' } });
    expect(server.requests).toHaveLength(0);
    expect(seen).toEqual(['goes-on', 'answers saw t1', 'response by answers']);
  });

  it('a hook that only edits headers asynchronously lets the fetch go with its edits', async () => {
    const server = await startServer(json({ data: { me: { id: '1' } } }));
    const source = createSource(server.url, {
      plugins: [
        {
          name: 'tenant',
          onSubgraphRequest: async ({ headers }) => {
            headers['x-tenant'] = 't2';
          },
        },
      ],
    });

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(response.data).toEqual({ me: { id: '1' } });
    expect(server.requests[0]?.headers['x-tenant']).toBe('t2');
  });

  it('a rejected Promise is a bug in that plugin: INTERNAL_SERVER_ERROR, logged with its name, no fetch', async () => {
    const server = await startServer(json({ data: { me: { id: '1' } } }));
    const { logger, lines } = captureLogger();
    const source = createSource(server.url, {
      logger,
      plugins: [{ name: 'rejects', onSubgraphRequest: () => Promise.reject(new Error('redis said no')) }],
    });

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(response.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(server.requests).toHaveLength(0);
    expect(lines.find((line) => line.msg === 'plugin subgraph hook failed')).toMatchObject({ plugin: 'rejects' });
  });
});

describe('aroundSubgraphFetch', () => {
  it('may narrow the variables it fetches and merge: the subgraph sees only what was asked', async () => {
    const server = await startServer((_request, response, body) => {
      const { variables } = JSON.parse(body) as { variables: { representations: { id: string }[] } };
      const entities = variables.representations.map(({ id }) => ({ name: `name-${id}` }));
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=30' });
      response.end(JSON.stringify({ data: { _entities: entities } }));
    });
    let fetched: FetchedSubgraphResult | undefined;
    const halfCache: GatewayPlugin = {
      name: 'half-cache',
      async aroundSubgraphFetch(request, fetch): Promise<SubgraphResult> {
        const all = request.variables?.representations as { id: string }[];
        fetched = await fetch({ representations: all.slice(1) });
        const rest = (fetched.result.data?._entities as unknown[]) ?? [];
        return { data: { _entities: [{ name: 'cached-1' }, ...rest] } };
      },
    };
    const source = createSource(server.url, { plugins: [halfCache] });

    const response = await source.process(
      incomingOperation({
        query: ENTITY_QUERY,
        variables: {
          representations: [
            { __typename: 'User', id: '1' },
            { __typename: 'User', id: '2' },
            { __typename: 'User', id: '3' },
          ],
        },
      }),
    );

    expect(response.data).toEqual({ _entities: [{ name: 'cached-1' }, { name: 'name-2' }, { name: 'name-3' }] });
    expect(JSON.parse(server.requests[0]?.body ?? '{}').variables.representations).toEqual([
      { __typename: 'User', id: '2' },
      { __typename: 'User', id: '3' },
    ]);
    expect(fetched?.fromSubgraph).toBe(true);
    expect(fetched?.headers['cache-control']).toBe('max-age=30');
  });

  it('sees a failed fetch as an answer made by the gateway (fromSubgraph false), never a throw', async () => {
    const server = await startServer(json({ oops: true }, 502));
    let fetched: FetchedSubgraphResult | undefined;
    const source = createSource(server.url, {
      plugins: [
        {
          name: 'observer',
          async aroundSubgraphFetch(_request, fetch) {
            fetched = await fetch();
            return fetched.result;
          },
        },
      ],
    });

    const response = await source.process(incomingOperation({ query: ROOT_QUERY }));

    expect(fetched?.fromSubgraph).toBe(false);
    expect(response.errors?.[0]?.extensions?.code).toBe('SUBREQUEST_HTTP_ERROR');
  });

  it('a wrapper that throws fails the fetch as INTERNAL_SERVER_ERROR, and one answering alone is seen by response hooks', async () => {
    const server = await startServer(json({ data: { me: { id: '1' } } }));
    const answeredBy: (string | undefined)[] = [];
    const source = createSource(server.url, {
      plugins: [
        { name: 'answers', aroundSubgraphFetch: async () => ({ data: { me: { id: 'kept' } } }) },
        { name: 'watcher', onSubgraphResponse: (response) => void answeredBy.push(response.answeredBy) },
      ],
    });
    const throwing = createSource(server.url, {
      plugins: [
        {
          name: 'throws',
          aroundSubgraphFetch: async () => {
            throw new Error('bug');
          },
        },
      ],
    });

    expect((await source.process(incomingOperation({ query: ROOT_QUERY }))).data).toEqual({ me: { id: 'kept' } });
    expect(answeredBy).toEqual(['answers']);
    const failed = await throwing.process(incomingOperation({ query: ROOT_QUERY }));
    expect(failed.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(server.requests).toHaveLength(0);
  });
});
