import {
  type ChaosSubgraph,
  eventually,
  type Gate,
  type GraphQLResult,
  MOUNTS,
  postGraphQL,
  type RunningGateway,
  type RunningSubgraph,
  startChaosSubgraph,
  startGate,
  startGateway,
  startSubgraphs,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Inbound request deduplication (INBOUND_DEDUPLICATE) over real HTTP on every mount.
 * Products and reviews sit behind a chaos subgraph (which counts what reaches them) in
 * front of a gate that holds subgraph requests until the test releases them, so the
 * concurrent requests provably overlap: the gate is released only once every request
 * has either reached the subgraph or joined an execution (the gateway's debug line), never
 * after a guessed delay.
 */
const TOP = 'query Top($first: Int) { topProducts(first: $first) { id name price } }';
const ADD_REVIEW =
  'mutation Add($productId: ID!, $rating: Int!, $comment: String!) { addReview(productId: $productId, rating: $rating, comment: $comment) { id rating author { id } product { id } } }';
const JOINED = 'joined a query in flight';

let subgraphs: Record<'users' | 'products' | 'reviews', RunningSubgraph>;
let gates: Gate[] = [];
let products: ChaosSubgraph;
let reviews: ChaosSubgraph;

beforeAll(async () => {
  subgraphs = await startSubgraphs();
  gates = await Promise.all([startGate(subgraphs.products.url), startGate(subgraphs.reviews.url)]);
  products = await startChaosSubgraph({ target: gates[0]?.server.url ?? '' });
  reviews = await startChaosSubgraph({ target: gates[1]?.server.url ?? '' });
});
afterAll(async () => {
  await Promise.all([products?.close(), reviews?.close(), ...gates.map((gate) => gate.server.close())]);
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});

function gatewayEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...subgraphUrlEnv({ users: subgraphs.users, products, reviews }),
    INBOUND_DEDUPLICATE: 'true',
    // The "joined" line is at debug level.
    GATEWAY_LOG_LEVEL: 'debug',
    // One subgraph request per execution, so the chaos counts are executions.
    SUBGRAPH_RETRIES: '0',
    SUBGRAPH_CIRCUIT_BREAKER: 'false',
    ...extra,
  };
}

const joinedLines = (gateway: RunningGateway) => gateway.logLines().filter((line) => line.msg === JOINED).length;

/**
 * Sends `requests` at once with the gates closed, waits until `fetches` subgraph requests
 * are held (counted by the chaos subgraph and held by a gate) and `joins` requests joined an
 * execution, then releases the gates (`how`) and returns the answers in order.
 */
async function overlapping(
  gateway: RunningGateway,
  requests: (() => Promise<GraphQLResult>)[],
  expected: { fetches: number; joins: number; subgraph?: ChaosSubgraph; how?: 'forward' | 'fail' },
): Promise<GraphQLResult[]> {
  const chaos = expected.subgraph ?? products;
  chaos.resetCounts();
  const joinedBefore = joinedLines(gateway);
  for (const gate of gates) gate.close();
  const answers = Promise.all(requests.map((send) => send()));
  try {
    await eventually(() => {
      expect(chaos.count()).toBe(expected.fetches);
      // The chaos subgraph counts a request before it reaches the gate behind it: released
      // in between, it would pass the open gate (a 'fail' release would not fail it).
      expect(gates.reduce((held, gate) => held + gate.holding(), 0)).toBe(expected.fetches);
      expect(joinedLines(gateway) - joinedBefore).toBe(expected.joins);
    });
  } finally {
    for (const gate of gates) gate.release(expected.how);
  }
  const results = await answers;
  expect(chaos.count()).toBe(expected.fetches);
  return results;
}

const top =
  (gateway: RunningGateway, first: number, headers: Record<string, string> = {}) =>
  () =>
    postGraphQL(gateway.url, { query: TOP, variables: { first } }, headers);

describe.each(MOUNTS)('inbound request deduplication on %s', (mount) => {
  describe('with header rules', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(
        mount,
        gatewayEnv({
          GATEWAY_PLUGINS: 'header-rules',
          GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ propagate: { named: 'x-user-id' } }] }),
        }),
      );
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('runs N identical concurrent queries once; each caller gets its own response', async () => {
      const alone = await postGraphQL(gateway.url, { query: TOP, variables: { first: 3 } });
      expect(alone.body.data?.topProducts).toHaveLength(3);
      const ids = ['dedup-a', 'dedup-b', 'dedup-c', 'dedup-d', 'dedup-e'];
      // The request id is per request: it is not part of the key, and each caller keeps its own.
      const results = await overlapping(
        gateway,
        ids.map((id) => top(gateway, 3, { 'x-request-id': id })),
        { fetches: 1, joins: 4 },
      );
      results.forEach((result, i) => {
        expect(result.status).toBe(200);
        expect(result.body).toEqual(alone.body);
        expect(result.headers.get('x-request-id')).toBe(ids[i]);
      });
    });

    it("gives each joined caller a lone request's bytes, with two executions in flight each its own", async () => {
      // `me` is the caller (x-user-id, propagated): one execution's bytes in another's body would show.
      const query = 'query TopAndMe($first: Int) { topProducts(first: $first) { id name price } me { id name } }';
      const as = (user: string) => () =>
        postGraphQL(gateway.url, { query, variables: { first: 4 } }, { 'x-user-id': user });
      const alone: Record<string, string> = {};
      for (const user of ['user-1', 'user-2']) {
        const result = await as(user)();
        expect((result.body.data?.me as { id?: string } | undefined)?.id).toBe(user);
        alone[user] = result.text;
      }
      const callers = ['user-1', 'user-2', 'user-1', 'user-2', 'user-1', 'user-2'];
      const results = await overlapping(gateway, callers.map(as), { fetches: 2, joins: 4 });
      results.forEach((result, i) => {
        expect(result.status).toBe(200);
        // Byte for byte: a lone request is serialized by Apollo Server's default, never from a shared answer.
        expect(result.text).toBe(alone[callers[i] as string]);
      });
    });

    it('never merges callers whose tokens, user ids or cookies differ', async () => {
      const callers: Record<string, string>[] = [
        { authorization: 'Bearer token-of-alice' },
        { authorization: 'Bearer token-of-bob' },
        { 'x-user-id': 'user-1' },
        { 'x-user-id': 'user-2' },
        { cookie: 'session=alice' },
        { cookie: 'session=bob' },
      ];
      const results = await overlapping(
        gateway,
        callers.map((headers) => top(gateway, 2, headers)),
        { fetches: callers.length, joins: 0 },
      );
      for (const result of results) expect(result.body.data?.topProducts).toHaveLength(2);
    });

    it('never merges queries whose variables differ', async () => {
      const results = await overlapping(gateway, [top(gateway, 2), top(gateway, 4)], { fetches: 2, joins: 0 });
      expect(results.map((result) => ((result.body.data?.topProducts ?? []) as unknown[]).length)).toEqual([2, 4]);
    });

    it('never merges mutations', async () => {
      const add = () =>
        postGraphQL(
          gateway.url,
          { query: ADD_REVIEW, variables: { productId: 'product-1', rating: 5, comment: 'twice' } },
          { 'x-user-id': 'user-3' },
        );
      const results = await overlapping(gateway, [add, add, add], { fetches: 3, joins: 0, subgraph: reviews });
      expect(reviews.count('mutation')).toBe(3);
      const reviewIds = results.map((result) => (result.body.data?.addReview as { id?: string } | undefined)?.id);
      expect(new Set(reviewIds).size).toBe(3);
    });

    it('gives the error of a failed execution to every caller that shared it', async () => {
      const results = await overlapping(gateway, [top(gateway, 5), top(gateway, 5), top(gateway, 5)], {
        fetches: 1,
        joins: 2,
        how: 'fail',
      });
      for (const result of results) {
        expect(result.status).toBe(200);
        expect(result.body.data).toBeNull();
        expect(result.body.errors?.[0]?.extensions?.code).toBe('SUBREQUEST_HTTP_ERROR');
        expect(result.body.errors?.[0]?.path).toEqual(['topProducts']);
      }
    });
  });

  describe('when callers disconnect', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(mount, gatewayEnv({ SHUTDOWN_GRACE_MS: '500' }));
    });
    afterAll(async () => {
      // Not asserted to exit 0: on the fastify mounts an aborted request keeps shutdown waiting
      // for the whole grace period, with or without deduplication (an adapter issue of its own).
      await gateway?.stop();
    });

    it('keeps answering the others when callers that shared an execution disconnect', async () => {
      const alone = await postGraphQL(gateway.url, { query: TOP, variables: { first: 6 } });
      const aborts = [new AbortController(), new AbortController()];
      const cancellable = (controller: AbortController) => () =>
        fetch(gateway.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: TOP, variables: { first: 6 } }),
          signal: controller.signal,
        }).then(
          () => ({ status: 0 }) as GraphQLResult,
          (error: Error) => ({ status: -1, text: error.name }) as GraphQLResult,
        );
      products.resetCounts();
      const joinedBefore = joinedLines(gateway);
      for (const gate of gates) gate.close();
      // The first caller runs the execution; the second joins it; both go away before it ends.
      const leader = cancellable(aborts[0] as AbortController)();
      await eventually(() => expect(products.count()).toBe(1));
      const others = [cancellable(aborts[1] as AbortController)(), top(gateway, 6)(), top(gateway, 6)()];
      await eventually(() => expect(joinedLines(gateway) - joinedBefore).toBe(3));
      for (const controller of aborts) controller.abort();
      const [leaderResult, waiterResult] = await Promise.all([leader, others[0]]);
      expect([leaderResult?.text, waiterResult?.text]).toEqual(['AbortError', 'AbortError']);
      for (const gate of gates) gate.release();
      const answered = await Promise.all(others.slice(1));
      for (const result of answered) {
        expect(result.status).toBe(200);
        expect(result.body).toEqual(alone.body);
      }
      expect(products.count()).toBe(1);
    });
  });

  describe('with a response budget the shared execution exceeds', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(mount, gatewayEnv({ MAX_RESPONSE_BYTES: '1024' }));
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('answers every caller RESPONSE_TOO_LARGE, byte for byte as a lone request, never the shared data', async () => {
      // Small from products, past the budget from reviews: the shared execution's data is not null
      // (each product's reviews null), and every caller's answer replaces it.
      const reviewed = () =>
        postGraphQL(gateway.url, { query: '{ topProducts(first: 3) { id reviews { id comment rating } } }' });
      const alone = await reviewed();
      expect(alone.body.data).toBeNull();
      expect(alone.body.errors?.map((error) => error.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
      const results = await overlapping(gateway, [reviewed, reviewed, reviewed, reviewed], { fetches: 1, joins: 3 });
      for (const result of results) expect(result.text).toBe(alone.text);
    });
  });

  describe('with the rate limit', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(
        mount,
        gatewayEnv({ GATEWAY_PLUGINS: 'rate-limit', RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '600000' }),
      );
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('counts every caller, including those that share an execution', async () => {
      const same = top(gateway, 2);
      const results = await overlapping(gateway, [same, same, same, same, same], { fetches: 1, joins: 2 });
      const statuses = results.map((result) => result.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      for (const result of results.filter((r) => r.status === 429)) {
        expect(result.body.errors?.[0]?.extensions?.code).toBe('REQUEST_RATE_LIMITED');
      }
    });
  });
});
