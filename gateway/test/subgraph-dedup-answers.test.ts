import { readFileSync } from 'node:fs';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { COMPLEX_QUERY, expectedComplex, expectedUserWithProducts, GET_USER_WITH_PRODUCTS } from '@fedgw/subgraphs';
import {
  type RunningSubgraph,
  SUPERGRAPH_PATH,
  type SubgraphName,
  startSubgraphs,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../src/compose/create-gateway.js';
import { parseConfig } from '../src/config/parse.js';
import type { Gateway } from '../src/gateway-core.js';
import { createLogger } from '../src/logger.js';
import { withoutSecurityFeatures } from '../src/supergraph/security-features.js';
import { requestScope } from './plugins/helpers/scope.js';

/**
 * Whole answers on the real subgraphs: our gateway (representation deduplication always
 * on, in-flight deduplication on) must answer exactly as @apollo/gateway's own data source
 * (no deduplication) and as the reference answers, while its subgraphs receive each
 * distinct representation once per fetch.
 */
/** Reviews whose authors repeat, then a further fetch under each (deduplicated) author. */
const REPEATED_AUTHORS = `query RepeatedAuthors {
  topProducts(first: 50) { id name reviews { id rating author { id name reviews { id product { id name price } } } } }
}`;
/** The same users reached through different parents, with different fields under each. */
const DIFFERENT_PARENTS = `query DifferentParents {
  users(first: 20) { edges { node { id orders { id product { id name reviews { author { id email } } } } } } }
  topProducts(first: 10) { reviews { author { id name orders { id quantity } } } }
}`;

const silent = createLogger({ log: { level: 'silent', pretty: false } });
let subgraphs: Record<SubgraphName, RunningSubgraph>;
/** Proxies in front of each subgraph, one set per gateway, recording what each gateway sends. */
const proxies: {
  ours: Partial<Record<SubgraphName, TestHttpServer>>;
  stock: Partial<Record<SubgraphName, TestHttpServer>>;
} = { ours: {}, stock: {} };
let ours: Gateway;
let stock: ApolloServer;

/** A recording proxy to `target`: the test reads what the gateway sent from `requests`. */
async function recordingProxy(target: string): Promise<TestHttpServer> {
  return startTestHttpServer((request, response, body) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of ['x-user-id']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    void fetch(target, { method: 'POST', headers, body })
      .then(async (upstream) => {
        const text = await upstream.text();
        response.writeHead(upstream.status, { 'content-type': 'application/json' });
        response.end(text);
      })
      .catch(() => response.destroy());
  });
}

beforeAll(async () => {
  subgraphs = await startSubgraphs();
  for (const side of ['ours', 'stock'] as const) {
    for (const name of ['users', 'products', 'reviews'] as const) {
      proxies[side][name] = await recordingProxy(subgraphs[name].url);
    }
  }
  ours = createGateway(
    parseConfig({
      SUPERGRAPH_PATH,
      MAX_COST: '1000000000',
      SUBGRAPH_DEDUPLICATE: 'true',
      SUBGRAPH_USERS_URL: proxies.ours.users?.url ?? '',
      SUBGRAPH_PRODUCTS_URL: proxies.ours.products?.url ?? '',
      SUBGRAPH_REVIEWS_URL: proxies.ours.reviews?.url ?? '',
    }),
    { logger: silent },
  );
  await ours.start();
  stock = new ApolloServer({
    gateway: new ApolloGateway({
      supergraphSdl: withoutSecurityFeatures(readFileSync(SUPERGRAPH_PATH, 'utf8')),
      buildService: ({ name }) => new RemoteGraphQLDataSource({ url: proxies.stock[name as SubgraphName]?.url }),
    }),
  });
  await stock.start();
}, 60_000);

afterAll(async () => {
  await ours?.stop();
  await stock?.stop();
  for (const side of Object.values(proxies)) await Promise.all(Object.values(side).map((proxy) => proxy.close()));
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});

async function answerOf(server: ApolloServer<never> | Gateway, query: string, variables?: Record<string, unknown>) {
  const response =
    'server' in server
      ? await server.server.executeOperation(
          { query, variables },
          { contextValue: await server.context(requestScope()) },
        )
      : await server.executeOperation({ query, variables });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  return response.body.singleResult;
}

type Body = { query: string; variables?: { representations?: unknown[] } };
/** The `_entities` fetches one gateway sent to one subgraph, from `from` on. */
function entityFetches(proxy: TestHttpServer | undefined, from: number): unknown[][] {
  return (proxy?.requests.slice(from) ?? [])
    .map((request) => JSON.parse(request.body) as Body)
    .flatMap((body) => (Array.isArray(body.variables?.representations) ? [body.variables.representations] : []));
}

/** Runs `query` on both gateways; returns both answers and the representations each sent to `subgraph`. */
async function both(query: string, subgraph: SubgraphName, variables?: Record<string, unknown>) {
  const ourStart = proxies.ours[subgraph]?.requests.length ?? 0;
  const stockStart = proxies.stock[subgraph]?.requests.length ?? 0;
  const [ourAnswer, stockAnswer] = [
    await answerOf(ours, query, variables),
    await answerOf(stock as never, query, variables),
  ];
  return {
    ourAnswer,
    stockAnswer,
    ourFetches: entityFetches(proxies.ours[subgraph], ourStart),
    stockFetches: entityFetches(proxies.stock[subgraph], stockStart),
  };
}

const count = (fetches: unknown[][]) => fetches.reduce((sum, list) => sum + list.length, 0);
const hasRepeats = (list: unknown[]) => new Set(list.map((item) => JSON.stringify(item))).size < list.length;

describe('representation deduplication on the real subgraphs', () => {
  it('answers a query with many repeated entities exactly as without deduplication, sending each once', async () => {
    const { ourAnswer, stockAnswer, ourFetches, stockFetches } = await both(REPEATED_AUTHORS, 'users');

    expect(ourAnswer.errors).toBeUndefined();
    expect(ourAnswer).toEqual(stockAnswer);
    // Without deduplication some author is asked for more than once; with it, none is.
    expect(stockFetches.some(hasRepeats)).toBe(true);
    expect(ourFetches.some(hasRepeats)).toBe(false);
    expect(count(ourFetches)).toBeLessThan(count(stockFetches));
  });

  it('keeps deduplicated entities apart when later fetches fill them through different parents', async () => {
    const { ourAnswer, stockAnswer } = await both(REPEATED_AUTHORS, 'reviews');
    const data = ourAnswer.data as {
      topProducts: { reviews: { author: { id: string; reviews: { product: { id: string } }[] } }[] }[];
    };
    // Every occurrence of one author carries that author's whole review list, nothing merged in from another.
    const byAuthor = new Map<string, string>();
    for (const product of data.topProducts) {
      for (const { author } of product.reviews) {
        const reviews = JSON.stringify(author.reviews);
        expect(byAuthor.get(author.id) ?? reviews).toBe(reviews);
        byAuthor.set(author.id, reviews);
      }
    }
    expect(ourAnswer).toEqual(stockAnswer);

    const other = await both(DIFFERENT_PARENTS, 'users');
    expect(other.ourAnswer.errors).toBeUndefined();
    expect(other.ourAnswer).toEqual(other.stockAnswer);
  });

  it('matches the reference answers of the seed queries', async () => {
    for (const userId of ['1', '7', '42']) {
      const withProducts = await both(GET_USER_WITH_PRODUCTS, 'products', { userId });
      expect(withProducts.ourAnswer).toEqual({ data: expectedUserWithProducts(userId) });
      expect(withProducts.ourAnswer).toEqual(withProducts.stockAnswer);
      const complex = await both(COMPLEX_QUERY, 'users', { userId });
      expect(complex.ourAnswer).toEqual({ data: expectedComplex(userId) });
      expect(complex.ourAnswer).toEqual(complex.stockAnswer);
    }
  });

  it('answers identical concurrent queries alike with in-flight deduplication on', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => answerOf(ours, REPEATED_AUTHORS)));
    const reference = await answerOf(stock as never, REPEATED_AUTHORS);
    for (const answer of answers) expect(answer).toEqual(reference);
  });
});
