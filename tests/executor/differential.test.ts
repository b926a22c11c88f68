import { readFileSync } from 'node:fs';
import {
  type ChaosSubgraph,
  type RunningSubgraph,
  SUPERGRAPH_PATH,
  seededRandom,
  startChaosSubgraph,
  startGateway,
  startSubgraph,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { buildSchema } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateOperation } from '../support/generate-operation.js';
import { FULL_RIGHTS_ENV, fullRightsHeaders, GENEROUS_LIMITS } from '../support/unrestricted-caller.js';
import { type Executor, executorPairForBlock, expectSameAnswer } from './executor-pair.js';
import { HAND_WRITTEN_CASES } from './hand-written-operations.js';
import { parsed } from './raw-answer.js';
import { type RewritingSubgraph, startRewritingSubgraph } from './rewriting-subgraph.js';
import { FAULT_CASES } from './subgraph-faults.js';

/**
 * Differential test of the query-plan executor: two gateways over the same subgraphs, one with
 * QUERY_PLAN_EXECUTOR=apollo (@apollo/gateway's executeQueryPlan) and one with =lean (ours),
 * must send every client the same status, content-type and body bytes. Random operations
 * (seeded: EXECUTOR_DIFF_SEED picks another run, EXECUTOR_DIFF_RUNS how many), hand-written
 * ones, and subgraphs that answer wrongly. A failure names the case, seed and operation, and
 * where the two bodies first differ.
 */
const SEED = Number(process.env.EXECUTOR_DIFF_SEED ?? 20_261_201);
const RUNS = Number(process.env.EXECUTOR_DIFF_RUNS ?? 300);
const ANONYMOUS_RUNS = Math.ceil(RUNS / 3);
const MUTATION_RUNS = 40;
const SCHEMA = buildSchema(readFileSync(SUPERGRAPH_PATH, 'utf8'), { assumeValidSDL: true });

// Users and products are shared. Each gateway has its own reviews subgraph: mutations add
// reviews, and twins that get the same mutations in the same order keep answering alike.
let users: RunningSubgraph;
let products: RunningSubgraph;
let reviews: Record<Executor, RunningSubgraph>;
let fullRights: Record<string, string>;
beforeAll(async () => {
  const [u, p, apollo, lean] = await Promise.all([
    startSubgraph('users'),
    startSubgraph('products'),
    startSubgraph('reviews'),
    startSubgraph('reviews'),
  ]);
  [users, products, reviews] = [u, p, { apollo, lean }];
  fullRights = await fullRightsHeaders();
});
afterAll(async () => {
  await Promise.all([users, products, ...Object.values(reviews ?? {})].map((subgraph) => subgraph?.stop()));
});

describe('QUERY_PLAN_EXECUTOR', () => {
  // Else a renamed or removed setting would leave both gateways on one executor, every case passing.
  it('is a setting the gateway reads: an unknown value stops it at startup', async () => {
    const env = { ...subgraphUrlEnv({ users, products, reviews: reviews.apollo }), QUERY_PLAN_EXECUTOR: 'bogus' };
    const started = startGateway('fastify', env);
    await expect(started).rejects.toThrow(/QUERY_PLAN_EXECUTOR: expected one of lean \| apollo/);
  });
});

describe('the lean and apollo executors answer byte for byte the same', () => {
  const pair = executorPairForBlock((executor) => ({
    ...subgraphUrlEnv({ users, products, reviews: reviews[executor] }),
    ...GENEROUS_LIMITS,
    ...FULL_RIGHTS_ENV,
    // A request without a token is anonymous (authorization removes fields), not a 401.
    JWT_REQUIRED: 'false',
    INTROSPECTION: 'true',
  }));

  it(`to ${RUNS} generated queries from a caller with every right (seed ${SEED})`, async () => {
    const random = seededRandom(SEED);
    for (let run = 0; run < RUNS; run++) {
      const operation = generateOperation(SCHEMA, random);
      const answer = await expectSameAnswer(pair, `signed in, seed ${SEED}, run ${run}`, operation, fullRights);
      // Answered whole: the comparison covered data, not a refusal both gateways share.
      expect(answer.status).toBe(200);
      expect(parsed(answer).errors, `seed ${SEED}, run ${run}`).toBeUndefined();
    }
  }, 120_000);

  it(`to ${ANONYMOUS_RUNS} generated queries without credentials, authorization removing fields`, async () => {
    const random = seededRandom(SEED + 1);
    let refused = 0;
    for (let run = 0; run < ANONYMOUS_RUNS; run++) {
      const operation = generateOperation(SCHEMA, random);
      const answer = await expectSameAnswer(pair, `anonymous, seed ${SEED + 1}, run ${run}`, operation);
      if (parsed(answer).errors?.some((error) => error.extensions?.code === 'UNAUTHORIZED_FIELD_OR_TYPE')) refused++;
    }
    // About half select a guarded field; a quarter is far below what any seed gives.
    expect(refused, 'operations that met an authorization error').toBeGreaterThan(ANONYMOUS_RUNS / 4);
  }, 60_000);

  it('to generated mutations, signed in (accepted or refused by validation) and not', async () => {
    const random = seededRandom(SEED + 2);
    const outcomes = new Set<string>();
    for (let run = 0; run < MUTATION_RUNS; run++) {
      const signedIn = run % 2 === 0;
      const operation = generateOperation(SCHEMA, random, 'mutation');
      const context = `mutation, ${signedIn ? 'signed in' : 'anonymous'}, seed ${SEED + 2}, run ${run}`;
      const answer = await expectSameAnswer(pair, context, operation, signedIn ? fullRights : {});
      const errors = parsed(answer).errors ?? [];
      outcomes.add(errors.length === 0 ? 'accepted' : String(errors[0]?.extensions?.code));
    }
    // Some mutations wrote a review, some were refused for their input, some for no caller.
    expect([...outcomes]).toEqual(expect.arrayContaining(['accepted', 'BAD_USER_INPUT', 'UNAUTHENTICATED']));
  }, 60_000);

  for (const signedIn of [true, false]) {
    it.each(HAND_WRITTEN_CASES)(
      `to $name (${signedIn ? 'signed in' : 'anonymous'})`,
      async ({ name, status, ...payload }) => {
        const answer = await expectSameAnswer(pair, name, payload, signedIn ? fullRights : {});
        expect(answer.status).toBe(status);
      },
    );
  }
});

describe('the executors answer the same when a subgraph answers wrongly', () => {
  let rewriting: Record<'users' | 'products', RewritingSubgraph>;
  let chaos: ChaosSubgraph;
  beforeAll(async () => {
    const [u, p, c] = await Promise.all([
      startRewritingSubgraph(users.url),
      startRewritingSubgraph(products.url),
      // Never reaches the subgraph with a mutation it accepts: one reviews twin serves both.
      startChaosSubgraph({ target: reviews.apollo.url, slowMs: 10_000 }),
    ]);
    [rewriting, chaos] = [{ users: u, products: p }, c];
  });
  afterEach(async () => {
    chaos.resetCounts();
    rewriting.users.rewrite();
    rewriting.products.rewrite();
    await chaos.setMode('pass');
  });
  afterAll(async () => {
    await Promise.all([rewriting?.users.close(), rewriting?.products.close(), chaos?.close()]);
  });
  const pair = executorPairForBlock(() => ({
    ...subgraphUrlEnv({ users: rewriting.users, products: rewriting.products, reviews: chaos }),
    ...FULL_RIGHTS_ENV,
    JWT_REQUIRED: 'false',
    // Short, so the timeout case is quick; the healthy fetches beside it take milliseconds.
    SUBGRAPH_REVIEWS_TIMEOUT_MS: '1000',
    // Retries and the breaker hang on time (a budget over 10 s, a failure window): off, so
    // each gateway meets each fault exactly once, whenever it is asked.
    SUBGRAPH_RETRIES: '0',
    SUBGRAPH_CIRCUIT_BREAKER: 'false',
  }));

  it.each(FAULT_CASES)('$name', async (fault) => {
    rewriting.users.rewrite(fault.users);
    rewriting.products.rewrite(fault.products);
    await chaos.setMode(fault.reviews ?? 'pass');
    const answer = await expectSameAnswer(pair, fault.name, { query: fault.query }, fault.signedIn ? fullRights : {});
    // A rewrite that never applied would leave two healthy answers to compare.
    if (fault.users) expect(rewriting.users.rewritten, 'users answers rewritten').toBeGreaterThan(0);
    if (fault.products) expect(rewriting.products.rewritten, 'products answers rewritten').toBeGreaterThan(0);
    if (fault.reviews) expect(chaos.requests.some(({ mode }) => mode === fault.reviews)).toBe(true);
    if (fault.shows) expect(answer.body.toString('utf8'), 'how the fault shows').toMatch(fault.shows);
  });
});
