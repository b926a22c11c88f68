import type { RowResult, ScenarioResult } from '../run/results.js';
import { ROUTER } from '../targets/targets.js';
import {
  SEED_B,
  SEED_C,
  SEED_D,
  SEED_E,
  type SeedBRow,
  type SeedCTest,
  type SeedDRow,
  type SeedERow,
} from './seed-reference.js';

/** The Rust reference every Node target is compared with in §A. */
export const ROUTER_TARGET = ROUTER;

type OkRow = RowResult & { readonly status: 'ok' };

export function isOk(row: RowResult): row is OkRow {
  return row.status === 'ok';
}

const div = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined || b === 0 ? undefined : a / b;

// ---------------------------------------------------------------- §A

export interface RouterComparison {
  readonly node: RowResult;
  /** The Router row for the same variant, if the scenario has one. */
  readonly router: RowResult | undefined;
  /** Why there are no ratios (a row is not ok); undefined when the ratios are there. */
  readonly unavailable?: string;
  /** Router req/s ÷ Node req/s (the seed's "3.9x"). */
  readonly throughputRatio?: number;
  /** Node mean, p50, p99 latency ÷ Router's. */
  readonly meanRatio?: number;
  readonly p50Ratio?: number;
  readonly p99Ratio?: number;
  /** Node p99.9 ÷ Router's (issue 31's §C target reports it; absent in older runs). */
  readonly p999Ratio?: number;
  /** Node peak RSS ÷ Router peak RSS. */
  readonly rssRatio?: number;
  /** Node gateway CPU-seconds per request ÷ the Router's (issue 22's first target: ≤ 1.0). */
  readonly cpuRatio?: number;
}

/** Each Node row of §A beside the Router row with the same variant. */
export function compareWithRouter(scenario: ScenarioResult): RouterComparison[] {
  return scenario.rows
    .filter((row) => row.target !== ROUTER_TARGET)
    .map((node) => {
      const router = scenario.rows.find((r) => r.target === ROUTER_TARGET && r.variant === node.variant);
      if (!router) return { node, router, unavailable: `no ${ROUTER_TARGET} row` };
      if (!isOk(router)) return { node, router, unavailable: `${ROUTER_TARGET} ${router.message ?? router.status}` };
      if (!isOk(node)) return { node, router, unavailable: `${node.target} ${node.status}` };
      return {
        node,
        router,
        throughputRatio: div(router.rps, node.rps),
        meanRatio: div(node.latencyMs?.mean, router.latencyMs?.mean),
        p50Ratio: div(node.latencyMs?.p50, router.latencyMs?.p50),
        p99Ratio: div(node.latencyMs?.p99, router.latencyMs?.p99),
        p999Ratio: div(node.latencyMs?.p999, router.latencyMs?.p999),
        rssRatio: div(node.gatewayPeakRssMb, router.gatewayPeakRssMb),
        cpuRatio: div(node.gatewayCpuSecPer1k, router.gatewayCpuSecPer1k),
      };
    });
}

/** §A's second query (four hops) is the seed's ComplexQuery. */
export function isComplexQueryVariant(variant: string): boolean {
  return /complex|four.?hop|4.?hop/i.test(variant);
}

// ---------------------------------------------------------------- §B

/** Express-based target and its Fastify counterpart: same stack, other HTTP framework. */
export const ADAPTER_PAIRS: readonly (readonly [express: string, fastify: string])[] = [
  ['nest-express', 'nest-fastify'],
  ['express', 'fastify'],
];

/** Bare framework and the same framework under NestJS: what Nest itself costs. */
export const NEST_PAIRS: readonly (readonly [bare: string, nest: string])[] = [
  ['fastify', 'nest-fastify'],
  ['express', 'nest-express'],
];

/** The standalone server with Apollo's default fetcher, and with our undici data source. */
export const FETCHER_PAIRS: readonly (readonly [defaultFetcher: string, undici: string])[] = [
  ['standalone', 'standalone-undici'],
];

export interface PairComparison {
  readonly variant: string;
  readonly base: RowResult;
  readonly other: RowResult;
  /** other req/s ÷ base req/s − 1, in percent; undefined unless both rows are ok. */
  readonly gainPercent?: number;
}

/** For each variant, each pair present in the scenario: the second target's throughput change over the first. */
export function comparePairs(
  scenario: ScenarioResult,
  pairs: readonly (readonly [string, string])[],
): PairComparison[] {
  const out: PairComparison[] = [];
  for (const variant of variantsOf(scenario)) {
    for (const [baseTarget, otherTarget] of pairs) {
      const base = scenario.rows.find((r) => r.variant === variant && r.target === baseTarget);
      const other = scenario.rows.find((r) => r.variant === variant && r.target === otherTarget);
      if (!base || !other) continue;
      const ratio = isOk(base) && isOk(other) ? div(other.rps, base.rps) : undefined;
      out.push({ variant, base, other, gainPercent: ratio === undefined ? undefined : (ratio - 1) * 100 });
    }
  }
  return out;
}

/** The seed row measured at the same connection count, if any. */
export function seedBFor(connections: number | undefined): SeedBRow | undefined {
  return SEED_B.rows.find((r) => r.connections === connections);
}

// ---------------------------------------------------------------- §C

/** The seed test a §C variant reproduces, recognised from its name. */
export function seedCFor(variant: string): SeedCTest | undefined {
  const v = variant.toLowerCase();
  const id = /jwt|client.?aware/.test(v)
    ? 'jwt-client-awareness'
    : /guid|uuid/.test(v)
      ? 'guid-headers'
      : /static|subgraph.?header/.test(v)
        ? 'static-header'
        : undefined;
  return SEED_C.tests.find((t) => t.id === id);
}

export function isBaselineVariant(variant: string): boolean {
  return /baseline|^none$|no plugin/i.test(variant);
}

// ---------------------------------------------------------------- §D

/** The seed row a §D variant corresponds to, recognised from its name. */
export function seedDFor(variant: string): SeedDRow | undefined {
  const v = variant.toLowerCase();
  const rate = /rate/.test(v);
  const auth = /auth|jwt|key/.test(v);
  const id =
    rate && auth
      ? 'rate-limit+auth'
      : rate
        ? 'rate-limit'
        : /route/.test(v)
          ? 'many-routes'
          : /^none$|no plugin|baseline/.test(v)
            ? 'none'
            : undefined;
  return SEED_D.rows.find((r) => r.id === id);
}

// ---------------------------------------------------------------- §E

export interface RateStep {
  readonly row: RowResult;
  /** This row's p95 ÷ the p95 at the lowest rate of the same target and variant. */
  readonly p95Growth?: number;
  readonly seed: SeedERow | undefined;
}

/** §E rows grouped by target and variant, ordered by rate, with the tail's growth as the rate rises. */
export function rateSteps(scenario: ScenarioResult): RateStep[][] {
  const groups = new Map<string, RowResult[]>();
  for (const row of scenario.rows) {
    const key = `${row.target}\u0000${row.variant}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((rows) => {
    const sorted = [...rows].sort((a, b) => (a.rate ?? 0) - (b.rate ?? 0));
    const first = sorted.find(isOk)?.latencyMs?.p95;
    return sorted.map((row) => ({
      row,
      p95Growth: isOk(row) ? div(row.latencyMs?.p95, first) : undefined,
      seed: SEED_E.rows.find((s) => s.rate === row.rate),
    }));
  });
}

/** The seed's p95 at a rate ÷ its p95 at 100 req/s, for one plugin language. */
export function seedP95Growth(
  rate: number | undefined,
  language: 'lua' | 'go' | 'python' | 'javascript',
): number | undefined {
  const at = SEED_E.rows.find((r) => r.rate === rate);
  const first = SEED_E.rows[0];
  return at && first ? at[language].p95 / first[language].p95 : undefined;
}

// ---------------------------------------------------------------- shared

/** Variants in first-seen order. */
export function variantsOf(scenario: ScenarioResult): string[] {
  return [...new Set(scenario.rows.map((r) => r.variant))];
}
