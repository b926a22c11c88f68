import { readFileSync } from 'node:fs';
import {
  postGraphQL,
  type RunningGateway,
  type RunningSubgraph,
  SUPERGRAPH_PATH,
  seededRandom,
  startGateway,
  startSubgraphs,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { buildSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOperation } from '../support/generate-operation.js';
import { FULL_RIGHTS_ENV, fullRightsHeaders, GENEROUS_LIMITS } from '../support/unrestricted-caller.js';

/**
 * Property: on the project's data, the gateway's cost estimate is never below what the
 * subgraphs then return. Random operations on the real supergraph (fields, list sizes as
 * literals / variables / variable defaults / schema defaults / null, fragments, aliases,
 * @include/@skip) go to two compiled gateways over the real subgraphs: one with MAX_COST=1
 * reports the estimate in its refusal, one without a practical limit answers. Each object
 * in the answer is what the estimate charges 1 for (no `@cost` weights in this supergraph),
 * so the answer's object count, every list's items included, must not exceed the estimate.
 * COST_PROPERTY_SEED picks another run; a failure names its seed and operation.
 */
const SEED = Number(process.env.COST_PROPERTY_SEED ?? 20_261_125);
const RUNS = Number(process.env.COST_PROPERTY_RUNS ?? 200);
const SDL = readFileSync(SUPERGRAPH_PATH, 'utf8');

/** Objects in an answer: each costs 1 in the estimate; scalars (and `__typename`) cost 0. */
function objectsIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + objectsIn(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Object.values(value).reduce((sum: number, item) => sum + objectsIn(item), 0);
}

let fullRights: Record<string, string> = {};
let subgraphs: Record<'users' | 'products' | 'reviews', RunningSubgraph>;
let estimating: RunningGateway;
let answering: RunningGateway;
beforeAll(async () => {
  subgraphs = await startSubgraphs();
  [estimating, answering] = await Promise.all([
    startGateway('fastify', { ...subgraphUrlEnv(subgraphs), ...GENEROUS_LIMITS, MAX_COST: '1' }),
    startGateway('fastify', {
      ...subgraphUrlEnv(subgraphs),
      ...GENEROUS_LIMITS,
      // A caller with every right, so the answer holds every field the operation selects.
      ...FULL_RIGHTS_ENV,
    }),
  ]);
  fullRights = await fullRightsHeaders();
});
afterAll(async () => {
  await Promise.all([estimating?.stop(), answering?.stop()]);
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});

describe(`the cost estimate covers the answer (seed ${SEED}, ${RUNS} operations)`, () => {
  it('declares no @cost weights, so an answer object costs exactly 1', () => {
    expect(SDL).not.toMatch(/@cost\(weight: *\d/);
  });

  it('is never below the objects the subgraphs return, however the sizes are given', async () => {
    const schema = buildSchema(SDL, { assumeValidSDL: true });
    const random = seededRandom(SEED);
    let largest = 0;
    for (let run = 0; run < RUNS; run++) {
      const operation = generateOperation(schema, random);
      const context = `seed ${SEED}, run ${run}: ${operation.query}\nvariables: ${JSON.stringify(operation.variables)}`;

      const answered = await postGraphQL(answering.url, operation, fullRights);
      expect(answered.status, `${context}\n${answered.text.slice(0, 500)}`).toBe(200);
      expect(answered.body.errors, `${context}\n${JSON.stringify(answered.body.errors)}`).toBeUndefined();
      const actual = Object.values(answered.body.data ?? {}).reduce((sum: number, item) => sum + objectsIn(item), 0);

      const refused = await postGraphQL(estimating.url, operation);
      const estimate =
        refused.status === 200 ? 1 : Number(refused.body.errors?.[0]?.extensions?.estimatedCost ?? Number.NaN);
      if (refused.status !== 200) {
        expect(refused.body.errors?.[0]?.extensions?.code, context).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
      }
      expect(estimate, `${context}\nanswer has ${actual} objects`).toBeGreaterThanOrEqual(actual);
      largest = Math.max(largest, actual);
    }
    // The runs reached big answers, not only trivial ones.
    expect(largest).toBeGreaterThan(1000);
  }, 240_000);
});
