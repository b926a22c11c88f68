// Cold planning time of QUERY_PLANNER=apollo and =hive (ADR 061), measured through a running
// gateway: each operation sent with a root alias never sent before (a new plan-store key, so a
// plan is made: planner, translation, compiled shaping) and again as sent before (the plan
// cached). The difference of the medians is what a cold plan cache costs per operation.
import { performance } from 'node:perf_hooks';
import { COMPLEX_QUERY, DASHBOARD_QUERY, GET_USER_WITH_PRODUCTS, TYPENAME_QUERY } from '@fedgw/subgraphs';
import { type RunningSubgraph, startGateway, subgraphUrlEnv, token } from '@fedgw/test-support';
import { median, withRootAlias } from './planner-cpu.js';

export const PLANNERS = ['apollo', 'hive'] as const;
export type Planner = (typeof PLANNERS)[number];

export const OPERATIONS = {
  TypenameQuery: TYPENAME_QUERY,
  GetUserWithProducts: GET_USER_WITH_PRODUCTS,
  ComplexQuery: COMPLEX_QUERY,
  Dashboard: DASHBOARD_QUERY,
} as const;

const SECRET = new TextEncoder().encode('cold-planning-bench-secret-0123456789abcdef');
const GATEWAY_ENV = {
  GATEWAY_PLUGINS: 'jwt',
  JWT_SECRET: Buffer.from(SECRET).toString(),
  JWT_ALGORITHMS: 'HS256',
  AUTHORIZATION_POLICIES: 'support:role=support',
  MAX_TOKENS: '100000',
  MAX_COST: '1000000000',
  SUPERGRAPH_POLL_INTERVAL_MS: '0',
};

export interface PlanningRow {
  readonly planner: Planner;
  readonly operation: string;
  /** Median request time with the plan made for it, and with it cached (ms). */
  readonly coldMs: number;
  readonly warmMs: number;
  /** Median of each round's cold minus its warm request: what making the plan cost. */
  readonly planMs: number;
}

/**
 * `rounds` rounds per operation on two gateways at once (one per planner): each round sends a
 * cold and a warm request to one planner, then to the other, so both meet the same load.
 */
export async function measureColdPlanning(
  subgraphs: Record<'users' | 'products' | 'reviews', RunningSubgraph>,
  rounds: number,
): Promise<PlanningRow[]> {
  const authorization = `Bearer ${await token(SECRET, { claims: { scope: 'orders:read audit:read', role: 'support' } })}`;
  const gateways = await Promise.all(
    PLANNERS.map((planner) =>
      startGateway('fastify', { ...subgraphUrlEnv(subgraphs), ...GATEWAY_ENV, QUERY_PLANNER: planner }),
    ),
  );
  try {
    const rows: PlanningRow[] = [];
    for (const [operation, text] of Object.entries(OPERATIONS)) {
      const send = (index: number, alias: string) =>
        timedPost(gateways[index]?.url as string, withRootAlias(text, alias), authorization);
      const samples = PLANNERS.map(() => ({ cold: [] as number[], warm: [] as number[], plan: [] as number[] }));
      for (let index = 0; index < PLANNERS.length; index++) await send(index, 'warm'); // each warm plan, made once
      for (let round = 0; round < rounds; round++) {
        for (const [index, sample] of samples.entries()) {
          const cold = await send(index, `cold${round}`);
          const warm = await send(index, 'warm');
          sample.cold.push(cold);
          sample.warm.push(warm);
          sample.plan.push(cold - warm);
        }
      }
      for (const [index, planner] of PLANNERS.entries()) {
        const { cold, warm, plan } = samples[index] as (typeof samples)[number];
        rows.push({ planner, operation, coldMs: median(cold), warmMs: median(warm), planMs: median(plan) });
      }
    }
    return rows;
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
  }
}

async function timedPost(url: string, query: string, authorization: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ query, variables: { userId: 'user-1' } }),
  });
  const body = (await response.json()) as { errors?: { message: string }[] };
  const took = performance.now() - started;
  if (response.status !== 200 || body.errors) throw new Error(`${response.status}: ${JSON.stringify(body.errors)}`);
  return took;
}
