import { MOUNTS, type Mount, type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANNER_CASES, type PlannerCase } from './planner-cases/cases.js';
import { type SmallSupergraph, startSmallSupergraph } from './planner-cases/small-supergraph.js';

/**
 * QUERY_PLANNER=hive (ADR 061) on four small graphs of our own, each in the shape of a
 * federation-gateway-audit case that @apollo/query-planner plans wrongly: on every mount, the
 * answers worked out by hand. And QUERY_PLANNER=apollo, on one mount, still answers each of them
 * otherwise: when an @apollo/query-planner upgrade fixes one, this says so (and the ADR's
 * reason for the second planner shrinks).
 */
type Answer = { status: number; data?: unknown; errors?: { extensions?: { code?: string } }[] };

async function ask(gateway: RunningGateway, query: string): Promise<Answer> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

/** What the audit compares: the data, and whether there were errors when errors are expected. */
function matches(answer: Answer, expected: PlannerCase['operations'][number]['expected']): boolean {
  if ('errors' in expected) return (answer.errors?.length ?? 0) > 0 && (answer.data ?? null) === null;
  return answer.errors === undefined && JSON.stringify(answer.data) === JSON.stringify(expected.data);
}

describe.each(PLANNER_CASES)('$name', (plannerCase) => {
  let supergraph: SmallSupergraph;
  beforeAll(async () => {
    supergraph = await startSmallSupergraph(plannerCase.subgraphs);
  });
  afterAll(async () => {
    await supergraph?.stop();
  });
  const start = (mount: Mount, planner: 'apollo' | 'hive') =>
    startGateway(mount, { SUPERGRAPH_PATH: supergraph.path, QUERY_PLANNER: planner, SUPERGRAPH_POLL_INTERVAL_MS: '0' });

  it.each(MOUNTS)('QUERY_PLANNER=hive answers as worked out by hand on %s', async (mount) => {
    const gateway = await start(mount, 'hive');
    try {
      for (const { query, expected } of plannerCase.operations) {
        const answer = await ask(gateway, query);
        // A planner's refusal is the client's answer: 400 and Apollo Router's code, never a 500.
        if ('errors' in expected)
          expect([answer.status, answer.errors?.map((error) => error.extensions?.code)], query).toEqual([
            400,
            ['QUERY_PLANNING_FAILED'],
          ]);
        else expect(answer, query).toEqual({ status: 200, data: expected.data });
        expect(matches(answer, expected), query).toBe(true);
      }
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it('QUERY_PLANNER=apollo answers at least one of its operations otherwise (@apollo/query-planner 2.14)', async () => {
    const gateway = await start('fastify', 'apollo');
    try {
      const answers = await Promise.all(plannerCase.operations.map(({ query }) => ask(gateway, query)));
      const wrong = plannerCase.operations.filter(
        ({ expected }, index) => !matches(answers[index] as Answer, expected),
      );
      expect(wrong.length, JSON.stringify(answers)).toBeGreaterThan(0);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });
});
