/**
 * The published measurements the benchmark reproduces (docs/reference/published-benchmarks.md),
 * as data. Numbers are copied as published; the report puts them beside ours and compares
 * ratios and shapes, never absolute numbers (other hardware, other load generators).
 */

export interface SeedPercentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export interface SeedA {
  readonly source: string;
  readonly throughput: {
    readonly routerRps: number;
    readonly routerCpuShare: number;
    readonly nodeRps: number;
    readonly nodeCpuShare: number;
    /** Router ÷ Node. */
    readonly ratio: number;
  };
  readonly latencyMs: {
    readonly router: SeedPercentiles;
    readonly node: SeedPercentiles;
    /** Node ÷ Router. */
    readonly ratioP50: number;
    readonly ratioP99: number;
  };
  readonly memoryAfter1hMb: { readonly router: number; readonly node: number };
  readonly complexQueryMs: {
    readonly router: { readonly mean: number; readonly p99: number };
    readonly node: { readonly mean: number; readonly p99: number };
    readonly ratioMean: number;
    readonly ratioP99: number;
  };
  /** Benchmarks that give the gateway as many cores as the Router. */
  readonly sameCores: { readonly nodeShareOfRouter: number; readonly ratioLow: number; readonly ratioHigh: number };
}

export const SEED_A: SeedA = {
  source: 'Apollo Router v1.50 vs @apollo/gateway 2.7 (startStandaloneServer), k6 ramp to 100 VUs',
  throughput: { routerRps: 12_500, routerCpuShare: 0.45, nodeRps: 3_200, nodeCpuShare: 0.95, ratio: 3.9 },
  latencyMs: {
    router: { p50: 8.2, p95: 15.3, p99: 22.1, max: 45 },
    node: { p50: 28.5, p95: 67.8, p99: 142.3, max: 310 },
    ratioP50: 3.5,
    ratioP99: 6.4,
  },
  memoryAfter1hMb: { router: 85, node: 420 },
  complexQueryMs: {
    router: { mean: 45.2, p99: 78.5 },
    node: { mean: 152.3, p99: 320.8 },
    ratioMean: 3.4,
    ratioP99: 4.1,
  },
  sameCores: { nodeShareOfRouter: 0.58, ratioLow: 1.5, ratioHigh: 1.7 },
};

export interface SeedBRow {
  readonly connections: number;
  readonly duration: string;
  readonly express: { readonly meanMs: number; readonly rps: number };
  readonly fastify: { readonly meanMs: number; readonly rps: number };
  /** Fastify throughput gain over Express, percent. */
  readonly gainPercent: number;
}

export const SEED_B = {
  source: 'NestJS ExpressAdapter vs FastifyAdapter, same REST controller (GET /api/v1/simple)',
  rows: [
    {
      connections: 50,
      duration: '2 min',
      express: { meanMs: 15.2, rps: 3_289 },
      fastify: { meanMs: 12.8, rps: 3_906 },
      gainPercent: 18.8,
    },
    {
      connections: 200,
      duration: '5 min',
      express: { meanMs: 70.2, rps: 2_847 },
      fastify: { meanMs: 56.9, rps: 3_512 },
      gainPercent: 23.4,
    },
    {
      connections: 500,
      duration: '10 min',
      express: { meanMs: 223.7, rps: 2_234 },
      fastify: { meanMs: 172.9, rps: 2_891 },
      gainPercent: 29.4,
    },
  ] satisfies readonly SeedBRow[],
  tailsAt50: { express: { p95: 28.7, p99: 45.3 }, fastify: { p95: 23.1, p99: 38.7 } },
  /** Framework-level (hello world) Fastify ÷ Express. */
  helloWorldRatio: { low: 1.7, high: 1.9 },
} as const;

export interface SeedDelta {
  readonly p50: number;
  readonly p99: number;
}

export interface SeedCTest {
  readonly id: 'static-header' | 'guid-headers' | 'jwt-client-awareness';
  readonly title: string;
  readonly baselineMs: SeedDelta;
  /** Latency added over the baseline, ms; null where the mechanism cannot do the test. */
  readonly config: SeedDelta | null;
  readonly rhai: SeedDelta | null;
  readonly nodeCoprocessor: SeedDelta;
  readonly goCoprocessor: SeedDelta;
}

export const SEED_C = {
  source: 'Apollo Router on 1 CPU / 1 GB, constant 100 req/s for 60 s, delta vs. no customization',
  tests: [
    {
      id: 'static-header',
      title: 'static subgraph header',
      baselineMs: { p50: 0.65, p99: 1.12 },
      config: { p50: 0.0, p99: -0.03 },
      rhai: { p50: 0.03, p99: 0.04 },
      nodeCoprocessor: { p50: 0.44, p99: 0.49 },
      goCoprocessor: { p50: 0.3, p99: 0.16 },
    },
    {
      id: 'guid-headers',
      title: '10 GUID response headers',
      baselineMs: { p50: 0.65, p99: 1.1 },
      config: null,
      rhai: { p50: 0.07, p99: 0.09 },
      nodeCoprocessor: { p50: 0.26, p99: 0.23 },
      goCoprocessor: { p50: 0.14, p99: 0.11 },
    },
    {
      id: 'jwt-client-awareness',
      title: 'JWT client awareness',
      baselineMs: { p50: 0.64, p99: 1.11 },
      config: null,
      rhai: null,
      nodeCoprocessor: { p50: 0.61, p99: 0.61 },
      goCoprocessor: { p50: 0.17, p99: 0.09 },
    },
  ] satisfies readonly SeedCTest[],
} as const;

export interface SeedDRow {
  readonly id: 'none' | 'rate-limit' | 'rate-limit+auth' | 'many-routes';
  readonly title: string;
  readonly apisixQps: number;
  readonly kongQps: number;
  readonly apisixKeptPercent: number;
  readonly kongKeptPercent: number;
}

export const SEED_D = {
  source: 'APISIX 3.0 vs Kong 3.0, wrk2, one worker, mean of 10 runs',
  rows: [
    {
      id: 'none',
      title: '1 route, no plugin',
      apisixQps: 14_104,
      kongQps: 9_857,
      apisixKeptPercent: 100,
      kongKeptPercent: 100,
    },
    {
      id: 'rate-limit',
      title: '+ rate limit (never reached)',
      apisixQps: 9_154,
      kongQps: 4_810,
      apisixKeptPercent: 65,
      kongKeptPercent: 49,
    },
    {
      id: 'rate-limit+auth',
      title: '+ rate limit + key auth',
      apisixQps: 8_933,
      kongQps: 3_977,
      apisixKeptPercent: 63,
      kongKeptPercent: 40,
    },
    {
      id: 'many-routes',
      title: '5,000 routes',
      apisixQps: 13_787,
      kongQps: 9_840,
      apisixKeptPercent: 98,
      kongKeptPercent: 100,
    },
  ] satisfies readonly SeedDRow[],
} as const;

export interface SeedAvgP95 {
  readonly avg: number;
  readonly p95: number;
}

export interface SeedERow {
  readonly rate: number;
  readonly lua: SeedAvgP95;
  readonly go: SeedAvgP95;
  readonly python: SeedAvgP95;
  readonly javascript: SeedAvgP95;
}

export const SEED_E = {
  source: 'Kong custom plugin counting requests in Valkey, k6 constant-arrival-rate, 60 s, Kong on 1 CPU',
  rows: [
    {
      rate: 100,
      lua: { avg: 3.54, p95: 4.42 },
      go: { avg: 4.0, p95: 4.79 },
      python: { avg: 4.36, p95: 5.14 },
      javascript: { avg: 4.3, p95: 5.12 },
    },
    {
      rate: 300,
      lua: { avg: 3.66, p95: 4.6 },
      go: { avg: 3.96, p95: 5.12 },
      python: { avg: 4.48, p95: 5.66 },
      javascript: { avg: 4.53, p95: 6.07 },
    },
    {
      rate: 500,
      lua: { avg: 6.36, p95: 13.94 },
      go: { avg: 5.08, p95: 11.36 },
      python: { avg: 13.53, p95: 40.17 },
      javascript: { avg: 11.12, p95: 29.14 },
    },
  ] satisfies readonly SeedERow[],
} as const;
