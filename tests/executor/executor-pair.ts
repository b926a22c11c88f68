import { type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterAll, assert, beforeAll, expect } from 'vitest';
import { askRaw, type GraphQLPayload, type RawAnswer } from './raw-answer.js';
import { differenceBetween } from './same-answer.js';

/** The two values of QUERY_PLAN_EXECUTOR: @apollo/gateway's executeQueryPlan, and ours. */
export const EXECUTORS = ['apollo', 'lean'] as const;
export type Executor = (typeof EXECUTORS)[number];

export interface ExecutorPair {
  /** Sends the same request to both gateways at once. */
  ask(payload: GraphQLPayload, headers?: Record<string, string>): Promise<Record<Executor, RawAnswer>>;
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
  const gateways: Partial<Record<Executor, RunningGateway>> = {};
  beforeAll(async () => {
    await Promise.all(
      EXECUTORS.map(async (executor) => {
        gateways[executor] = await startGateway('fastify', {
          MASK_ERRORS: 'false',
          SUBGRAPH_ERRORS: 'all',
          ...env(executor),
          QUERY_PLAN_EXECUTOR: executor,
        });
      }),
    );
  });
  afterAll(async () => {
    const codes = await Promise.all(EXECUTORS.map((executor) => gateways[executor]?.stop()));
    for (const code of codes) if (code !== undefined) expect(code).toBe(0);
  });
  const urlOf = (executor: Executor) => {
    const gateway = gateways[executor];
    if (!gateway) throw new Error('the pair starts in beforeAll: ask it inside a test');
    return gateway.url;
  };
  return {
    async ask(payload, headers) {
      const [apollo, lean] = await Promise.all(EXECUTORS.map((executor) => askRaw(urlOf(executor), payload, headers)));
      return { apollo: apollo as RawAnswer, lean: lean as RawAnswer };
    },
  };
}

/**
 * Asks both and fails, naming `context` (the case, its seed and operation), unless the answers
 * are the same bytes. Returns apollo's answer, for the checks that the case did what it meant.
 */
export async function expectSameAnswer(
  pair: ExecutorPair,
  context: string,
  payload: GraphQLPayload,
  headers?: Record<string, string>,
): Promise<RawAnswer> {
  const answers = await pair.ask(payload, headers);
  const difference = differenceBetween(answers.apollo, answers.lean);
  if (difference !== undefined) {
    const { query, variables, operationName } = payload;
    assert.fail(
      `the executors answered differently (${context})\n${difference}\n` +
        `operation${operationName ? ` ${operationName}` : ''}:\n${query}\nvariables: ${JSON.stringify(variables ?? {})}`,
    );
  }
  return answers.apollo;
}
