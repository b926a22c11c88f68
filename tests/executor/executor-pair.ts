import { type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterAll, assert, beforeAll, expect } from 'vitest';
import { askRaw, type GraphQLPayload, type RawAnswer } from './raw-answer.js';
import { differenceBetween } from './same-answer.js';

/** The two values of QUERY_PLAN_EXECUTOR: @apollo/gateway's executeQueryPlan, and ours. */
export const EXECUTORS = ['apollo', 'lean'] as const;
export type Executor = (typeof EXECUTORS)[number];

export interface ExecutorPair {
  /** The two values of the setting the gateways differ in, in the order `ask` answers. */
  readonly names: readonly [string, string];
  /** Sends the same request to both gateways at once. */
  ask(payload: GraphQLPayload, headers?: Record<string, string>): Promise<[RawAnswer, RawAnswer]>;
}

/**
 * Two gateways that differ only in QUERY_PLAN_EXECUTOR, for the enclosing describe block.
 * `env(executor)` is read when they start, so it may name subgraphs started in an earlier hook;
 * it must give both the same settings (the subgraph URLs may name twin processes). Errors are
 * not masked, nor the subgraphs' own redacted (SUBGRAPH_ERRORS): a masked answer is a function of
 * the unmasked one (message, path, code), so comparing unmasked answers compares every masked one
 * too, and more.
 */
export function executorPairForBlock(env: (executor: Executor) => Record<string, string>): ExecutorPair {
  // QUERY_PLAN_EXECUTOR=apollo plans with Apollo's planner whatever QUERY_PLANNER says: the lean
  // one gets the same planner, so the pair differs only in who runs the plan (the two planners
  // have their own differential, planner-differential.test.ts).
  return gatewayPairForBlock('QUERY_PLAN_EXECUTOR', EXECUTORS, (executor) => ({
    QUERY_PLANNER: 'apollo',
    ...env(executor),
  }));
}

/** Two gateways that differ only in the setting `name` (its two `values`), as executorPairForBlock. */
export function gatewayPairForBlock<V extends string>(
  name: string,
  values: readonly [V, V],
  env: (value: V) => Record<string, string>,
): ExecutorPair {
  const gateways: Partial<Record<V, RunningGateway>> = {};
  beforeAll(async () => {
    await Promise.all(
      values.map(async (value) => {
        gateways[value] = await startGateway('fastify', {
          MASK_ERRORS: 'false',
          SUBGRAPH_ERRORS: 'all',
          ...env(value),
          [name]: value,
        });
      }),
    );
  });
  afterAll(async () => {
    const codes = await Promise.all(values.map((value) => gateways[value]?.stop()));
    for (const code of codes) if (code !== undefined) expect(code).toBe(0);
  });
  const urlOf = (value: V) => {
    const gateway = gateways[value];
    if (!gateway) throw new Error('the pair starts in beforeAll: ask it inside a test');
    return gateway.url;
  };
  return {
    names: values,
    async ask(payload, headers) {
      const [first, second] = values;
      return Promise.all([askRaw(urlOf(first), payload, headers), askRaw(urlOf(second), payload, headers)]);
    },
  };
}

/**
 * Asks both and fails, naming `context` (the case, its seed and operation), unless the answers
 * are the same bytes. Returns the first gateway's answer (apollo's), for the checks that the case did what it meant.
 */
export async function expectSameAnswer(
  pair: ExecutorPair,
  context: string,
  payload: GraphQLPayload,
  headers?: Record<string, string>,
): Promise<RawAnswer> {
  const [first, second] = await pair.ask(payload, headers);
  const difference = differenceBetween(first, second, [...pair.names]);
  if (difference !== undefined) {
    const { query, variables, operationName } = payload;
    assert.fail(
      `the gateways (${pair.names.join(', ')}) answered differently (${context})\n${difference}\n` +
        `operation${operationName ? ` ${operationName}` : ''}:\n${query}\nvariables: ${JSON.stringify(variables ?? {})}`,
    );
  }
  return first;
}
