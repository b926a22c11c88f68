import { readFileSync } from 'node:fs';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_DOCUMENTS,
  namedFolders,
  ROUTER_TARGETS_MARKERS,
  regenerate,
  VERDICT_MARKERS,
} from '../src/readme/documents.js';
import { findingsA, findingsB, findingsE } from '../src/readme/findings.js';
import { formatMarkdown } from '../src/readme/format-markdown.js';
import { findSection, replaceSection } from '../src/readme/markers.js';
import { renderRouterTargets } from '../src/readme/router-targets.js';
import { sectionA, sectionE, sectionF } from '../src/readme/sections.js';
import { findingsVersusRouter } from '../src/readme/versus-router.js';
import type { BenchResults, RowResult, ScenarioResult } from '../src/run/results.js';
import { renderSoakSection, SOAK_MARKERS } from '../src/soak/readme-section.js';
import type { SoakResults } from '../src/soak/results.js';
import { soakVerdict } from '../src/soak/verdict.js';

const latency = (p50: number, p95 = p50 * 2) => ({ mean: p50, p50, p90: p95 * 0.8, p95, p99: p95 * 1.5, max: p95 * 3 });
const row = (target: string, variant: string, fields: Partial<RowResult> = {}): RowResult => ({
  target,
  variant,
  status: 'ok',
  connections: 100,
  rps: 1000,
  latencyMs: latency(10),
  gatewayCpuSecPer1k: 0.5,
  gatewayPeakRssMb: 100,
  ...fields,
});
const scenario = (id: ScenarioResult['id'], rows: RowResult[]): ScenarioResult => ({
  id,
  title: `title ${id}`,
  description: '',
  kind: id === 'E' || id === 'C' ? 'fixed-rate' : 'closed-loop',
  rows,
});

const A = scenario('A', [
  row('nest-fastify', 'GetUserWithProducts', { rps: 2000 }),
  row('express', 'GetUserWithProducts', { rps: 1000 }),
  row('standalone', 'GetUserWithProducts', { rps: 500, gatewayCpuSecPer1k: 1.5 }),
  row('standalone-undici', 'GetUserWithProducts', { rps: 1500, gatewayCpuSecPer1k: 0.6 }),
  row('apollo-router', 'GetUserWithProducts', {
    rps: 4000,
    warnings: ['the load generator saturated: this row is not a measure of the target alone'],
  }),
]);

describe('README results section', () => {
  it('computes the Router multiple per row and names the fetcher-only pair', () => {
    const table = sectionA(A);
    expect(table).toMatch(/\| nest-fastify \| GetUserWithProducts \| 2,000 \| .* \| 2\.00x \|/);
    expect(table).toMatch(/\| express \| GetUserWithProducts \| 1,000 \| .* \| 4\.00x \|/);
    expect(findingsA(A)).toEqual([
      'GetUserWithProducts: Apollo Router served 2.00x (nest-fastify) to 4.00x (express) the throughput of our mounts, and 8.00x that of standalone.',
      "GetUserWithProducts, same server with only the fetcher changed: standalone-undici served 3.00x standalone's throughput, at 0.600 vs 1.500 CPU-ms per request.",
      "GetUserWithProducts, what our production server adds to the same data source (NestJS, fastify, a log line per request, request ids, limits, demand control): nest-fastify used 0.500 vs standalone-undici's 0.600 CPU-ms per request (−16.7%).",
    ]);
  });

  it("states each issue-11 target against the Router's row of the same variant, met or not", () => {
    const F = scenario('F', [
      row('nest-fastify', 'Dashboard', { rps: 100, gatewayCpuSecPer1k: 10, gatewayPeakRssMb: 500, requests: 1000 }),
      row('apollo-router', 'Dashboard', { rps: 200, gatewayCpuSecPer1k: 5, gatewayPeakRssMb: 100 }),
      row('nest-fastify', 'Dashboard · dedup', {
        rps: 1200,
        gatewayCpuSecPer1k: 0.5,
        gatewayPeakRssMb: 180,
        latencyMs: latency(10, 10),
        requests: 12_000,
        cpu: { subgraphs: { cpuSeconds: 6, share: 0.5 } },
      }),
      row('apollo-router', 'Dashboard · dedup', { rps: 1000, gatewayCpuSecPer1k: 0.6, gatewayPeakRssMb: 90 }),
      row('hive-gateway', 'Dashboard · dedup', { rps: 400, gatewayCpuSecPer1k: 2 }),
      row('hive-gateway-rust', 'Dashboard · dedup', { rps: 600, gatewayCpuSecPer1k: 1 }),
    ]);
    expect(findingsVersusRouter(F)).toEqual([
      'Dashboard, nest-fastify against the Router: CPU per request 2.00x (10.000 vs 5.000 ms), p99 1.00x (30.0 vs 30.0 ms), peak RSS 5.00x (500 vs 100 MB), throughput 0.50x (100 vs 200 req/s); CPU ≤ 1.0x: not met, p99 ≤ 1.0x: met, RSS ≤ 2x: not met.',
      'Dashboard · dedup, nest-fastify against the Router: CPU per request 0.83x (0.500 vs 0.600 ms), p99 0.50x (15.0 vs 30.0 ms), peak RSS 2.00x (180 vs 90 MB), throughput 1.20x (1,200 vs 1,000 req/s); CPU ≤ 1.0x: met, p99 ≤ 1.0x: met, RSS ≤ 2x: met.',
      'Dashboard · dedup, nest-fastify against the best Hive Gateway row (hive-gateway-rust): throughput 2.00x (1,200 vs 600 req/s), CPU per request 0.50x.',
    ]);
    // Only the rows the run has: Hive ran the dedup variant only.
    expect(sectionF(F)).not.toMatch(/\| hive-gateway \| Dashboard \|/);
    expect(sectionF(F)).toMatch(/\| hive-gateway \| Dashboard · dedup \|/);
    // §F's table adds the subgraphs' CPU per request: 6 CPU-s over 12,000 requests.
    expect(sectionF(F)).toMatch(/\| nest-fastify \| Dashboard · dedup \| 1,200 \| .* \| 0\.500 \| 0\.500 \| 180 \|/);
  });

  it('marks a row with warnings and prints the warning under its table', () => {
    const table = sectionA(A);
    expect(table).toContain('| apollo-router ⚠1 |');
    expect(table).toContain('⚠1 apollo-router · GetUserWithProducts: the load generator saturated');
    expect(table).not.toContain('nest-fastify ⚠');
  });

  it('says when NestJS was not slower in every pair instead of quoting one pair', () => {
    const B = scenario('B', [
      row('nest-fastify', 'q · 50 connections', { rps: 900 }),
      row('fastify', 'q · 50 connections', { rps: 1000 }),
      row('nest-express', 'q · 50 connections', { rps: 1100 }),
      row('express', 'q · 50 connections', { rps: 1000 }),
    ]);
    expect(findingsB(B)).toEqual([
      'NestJS vs the same adapter bare: slower in 1 of 2 pairs; the differences range from −10.0% to +10.0%.',
    ]);
  });

  it('says whether the p95 grew at every rate, and shows failures and late sends', () => {
    const E = scenario('E', [
      row('nest-fastify', 'memory', { rate: 100, latencyMs: latency(2, 4) }),
      row('nest-fastify', 'memory', { rate: 300, latencyMs: latency(2, 3) }),
      row('nest-fastify', 'memory', {
        rate: 500,
        latencyMs: latency(2, 5),
        errors: 7,
        schedule: { intended: 1000, sent: 1000, late: 25, maxLagMs: 4 },
      }),
    ]);
    expect(findingsE(E)).toEqual([
      'nest-fastify · memory: p95 4.00 → 3.00 → 5.00 ms at 100 / 300 / 500 req/s (did not grow at every step).',
    ]);
    expect(sectionE(E)).toMatch(/\| nest-fastify · memory \| 500 \| .* \| 7 \| 2\.5% \|/);
  });

  it('replaces only what is between the markers, and names the run folder', () => {
    const readme = 'intro\n<!-- bench-results:start docs/results/old -->\nold\n<!-- bench-results:end -->\noutro\n';
    const updated = replaceSection(readme, 'docs/results/new', 'new\n');
    expect(updated).toBe(
      'intro\n<!-- bench-results:start docs/results/new -->\nnew\n<!-- bench-results:end -->\noutro\n',
    );
    expect(findSection(updated)).toEqual({ folder: 'docs/results/new', body: 'new\n' });
    expect(() => replaceSection('no markers', 'x', 'y')).toThrow(/markers/);
  });
});

describe("issue 31's targets against the Router", () => {
  const environment = { cores: 2, node: 'v24.0.0' } as BenchResults['environment'];
  const at500 = (target: string, variant: string, p99: number, p999: number) =>
    row(target, variant, { rate: 500, latencyMs: { ...latency(2), p99, p999 } });
  const targetsRun = {
    runId: 'targets',
    mode: 'full',
    environment,
    scenarios: [
      scenario('C', [
        at500('nest-fastify', 'baseline', 20, 60),
        at500('apollo-router', 'baseline', 8, 12),
        at500('nest-fastify', 'ten GUID response headers', 40, 90),
        {
          ...at500('apollo-router', 'ten GUID response headers', 10, 20),
          warnings: ['3.0% of sends were late (worst 38.5 ms): the tail measures the load generator, not the target'],
        },
      ]),
      scenario('A', [
        row('nest-fastify', 'ComplexQuery', { gatewayPeakRssMb: 240, gatewayCpuSecPer1k: 1.3 }),
        row('apollo-router', 'ComplexQuery', {
          gatewayPeakRssMb: 100,
          gatewayCpuSecPer1k: 1.0,
          warnings: ['the load generator saturated: this row is not a measure of the target alone'],
        }),
      ]),
    ],
  } as unknown as BenchResults;

  it('states each target with what the run measured, met or not', () => {
    const table = renderRouterTargets(targetsRun, 'docs/results/targets');
    expect(table).toContain(
      '| §C baseline at 500 req/s: p99 ≤ 3x | 2.5x: 20.0 vs 8.00 ms (p99.9 60.0 vs 12.0 ms) | met |',
    );
    expect(table).toContain('| §C ten GUID response headers at 500 req/s: p99 ≤ 3x | 4.0x: 40.0 vs 10.0 ms');
    expect(table).toMatch(/ten GUID .* \| not met ⚠1 \|/);
    expect(table).toContain('| §A ComplexQuery: peak RSS ≤ 2.5x | 2.40x: 240 vs 100 MB | met ⚠2 |');
    expect(table).toContain('| §A ComplexQuery: CPU per request ≤ 1.2x | 1.30x: 1.300 vs 1.000 ms | not met ⚠2 |');
    // A query the run did not measure is left out, not reported as met.
    expect(table).not.toContain('GetUserWithProducts');
  });

  it("carries the run's warnings: a verdict read from a warned row is marked, the warning printed once per row", () => {
    const table = renderRouterTargets(targetsRun, 'docs/results/targets');
    expect(table).toContain(
      '| §C baseline at 500 req/s: p99 ≤ 3x | 2.5x: 20.0 vs 8.00 ms (p99.9 60.0 vs 12.0 ms) | met |',
    );
    expect(table).toContain('**3 of 4 verdicts read rows the run warned about**');
    expect(table).toContain(
      '⚠1 §C apollo-router · ten GUID response headers: 3.0% of sends were late (worst 38.5 ms): the tail measures the load generator, not the target\\\n' +
        '⚠2 §A apollo-router · ComplexQuery: the load generator saturated: this row is not a measure of the target alone\n',
    );
    expect(table.match(/^⚠2 /gm)).toHaveLength(1);
  });

  it('fills only the sections a run can answer: a run of §A, §C and §F leaves the verdict to the full run', () => {
    const text =
      '<!-- bench-verdict:start docs/results/full -->\nfull verdict\n<!-- bench-verdict:end -->\n' +
      '<!-- bench-router-targets:start -->\n<!-- bench-router-targets:end -->\n';
    const updated = regenerate(text, '', () => targetsRun, ['docs/results/targets']);
    expect(findSection(updated, VERDICT_MARKERS)?.body).toBe('full verdict\n');
    expect(findSection(updated, ROUTER_TARGETS_MARKERS)?.folder).toBe('docs/results/targets');
    expect(findSection(updated, ROUTER_TARGETS_MARKERS)?.body).toContain('§C baseline at 500 req/s');
  });
});

describe('the committed generated sections', () => {
  const load = (folder: string) => JSON.parse(readFileSync(`${ROOT}/${folder}/results.json`, 'utf8'));

  it.each(GENERATED_DOCUMENTS)('$path is exactly what the runs its markers name generate', ({ path, linkPrefix }) => {
    const text = readFileSync(`${ROOT}/${path}`, 'utf8');
    expect(namedFolders(text).length, `${path} names no run`).toBeGreaterThan(0);
    // On failure: the page was edited by hand between markers, or the run changed; run pnpm bench:readme <folder>.
    expect(formatMarkdown(regenerate(text, linkPrefix, load), path)).toBe(text);
  });

  it('puts the verdict in the README and the full results in docs/benchmark.md, from a full run', () => {
    const readme = readFileSync(`${ROOT}/README.md`, 'utf8');
    const page = readFileSync(`${ROOT}/docs/benchmark.md`, 'utf8');
    const verdict = findSection(readme, VERDICT_MARKERS);
    expect(verdict?.body).toContain('Express or Fastify?');
    expect(findSection(page)?.folder).toBe(verdict?.folder);
    expect((load(verdict?.folder as string) as BenchResults).mode).toBe('full');
    // Links in docs/ lead back to the root.
    expect(findSection(page)?.body).toContain(`](../${verdict?.folder}/report.md)`);
  });
});

const soakInterval = (atSec: number, rssMb: number) => ({
  atSec,
  sent: 100,
  completed: 100,
  failed: 0,
  late: 0,
  latencyMs: { p50: 2, p99: 9 },
  errors: {},
  rssMb,
  cpuShare: 0.7,
  lagP99Ms: 11,
  lagMeanMs: 10.5,
  lagMaxMs: 30,
  heapUsedMb: 50,
});

describe('README Soak section', () => {
  it('fills a placeholder between the bench-soak markers with the verdict computed from the run', () => {
    const intervals = [soakInterval(10, 200), soakInterval(20, 201), soakInterval(30, 260)];
    const results = {
      kind: 'soak',
      runId: 'r-soak',
      command: 'pnpm bench:soak',
      environment: { cpuModel: 'CPU', cores: 2, node: 'v24', notes: [] },
      target: 'nest-fastify',
      stack: 'full',
      queries: ['A', 'B'],
      maxRate: { rps: 1000, source: 'measured', seconds: 15 },
      rate: 700,
      durationSec: 30,
      intervalSec: 10,
      intervals,
      totals: { sent: 300, completed: 300, failed: 0, late: 0, errors: {}, latencyMs: null },
      verdict: soakVerdict(intervals),
    } as unknown as SoakResults;
    const readme = `a\n<!-- ${SOAK_MARKERS}:start -->\nNo run yet.\n<!-- ${SOAK_MARKERS}:end -->\nb\n`;
    expect(findSection(readme, SOAK_MARKERS)).toBeNull();
    const updated = replaceSection(
      readme,
      'docs/results/x-soak',
      renderSoakSection(results, 'docs/results/x-soak'),
      SOAK_MARKERS,
    );
    const section = findSection(updated, SOAK_MARKERS);
    expect(section?.folder).toBe('docs/results/x-soak');
    expect(section?.body).toContain('**Verdict: fail.**');
    expect(section?.body).toContain('RSS grew 30.0% (200.0 → 260.0 MB');
    expect(section?.body).toContain('700 req/s, 70% of the 1,000 req/s');
    // The results section's markers are untouched by the soak's.
    expect(findSection(updated)).toBeNull();
  });
});
