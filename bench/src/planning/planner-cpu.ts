// CPU time of one cold plan per planner, in this process (no HTTP, no other request): Apollo's
// (`operationFromDocument` and `buildQueryPlan`, as the lean executor calls them) and Hive's
// (`plan` and the translation QUERY_PLANNER=hive runs, ADR 061). CPU time, not wall time, so a
// busy machine slows both alike rather than adding its noise. Each round plans every operation
// anew (a root alias never planned before), as a cold plan cache does.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';

// The planners are the gateway's dependencies, not the bench's: loaded from where it loads them.
const GATEWAY_DIR = fileURLToPath(new URL('../../../gateway/', import.meta.url));
const fromGateway = createRequire(`${GATEWAY_DIR}package.json`);

interface ApolloParts {
  Supergraph: { build(sdl: string, options: { supportedFeatures: unknown }): { apiSchema(): unknown } };
  ROUTER_SUPPORTED_SUPERGRAPH_FEATURES: unknown;
  operationFromDocument(schema: unknown, document: unknown, options: object): unknown;
  QueryPlanner: new (supergraph: unknown, config?: object) => { buildQueryPlan(operation: unknown): unknown };
}

export interface CpuRow {
  readonly operation: string;
  readonly apolloMs: number;
  readonly hiveMs: number;
}

/** The median CPU time (ms) per cold plan of each operation, over `rounds` rounds. */
export async function measurePlannerCpu(
  supergraphSdl: string,
  operations: Record<string, string>,
  rounds: number,
): Promise<CpuRow[]> {
  const internals = fromGateway('@apollo/federation-internals') as ApolloParts;
  const { QueryPlanner } = fromGateway('@apollo/query-planner') as ApolloParts;
  const { QueryPlanner: HivePlanner } = fromGateway('@graphql-hive/router-query-planner') as {
    QueryPlanner: new (sdl: string) => { plan(q: string, n: null, l: Set<string>, p: number): object };
  };
  const { translatePlan } = (await import(`${GATEWAY_DIR}dist/executor/hive-plan/translate-plan.js`)) as {
    translatePlan(plan: object): unknown;
  };
  // The demo links @authenticated, @requiresScopes and @policy `for: SECURITY`, which the gateway enforces.
  const supergraph = internals.Supergraph.build(supergraphSdl, {
    supportedFeatures: internals.ROUTER_SUPPORTED_SUPERGRAPH_FEATURES,
  });
  const apiSchema = supergraph.apiSchema();
  const apollo = new QueryPlanner(supergraph, { incrementalDelivery: { enableDefer: true } });
  const hive = new HivePlanner(supergraphSdl);
  const rows: CpuRow[] = [];
  for (const [name, text] of Object.entries(operations)) {
    const apolloTimes: number[] = [];
    const hiveTimes: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const query = withRootAlias(text, `cold${round}`);
      apolloTimes.push(
        cpuMs(() => apollo.buildQueryPlan(internals.operationFromDocument(apiSchema, parse(query), {}))),
      );
      hiveTimes.push(cpuMs(() => translatePlan(hive.plan(query, null, new Set(), 100))));
    }
    rows.push({ operation: name, apolloMs: median(apolloTimes), hiveMs: median(hiveTimes) });
  }
  return rows;
}

function cpuMs(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}

export function withRootAlias(text: string, alias: string): string {
  const open = text.indexOf('{');
  return `${text.slice(0, open + 1)} ${alias}: __typename ${text.slice(open + 1)}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
