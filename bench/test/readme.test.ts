import { readFileSync } from 'node:fs';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { findingsA, findingsB, findingsE } from '../src/readme/findings.js';
import { formatMarkdown } from '../src/readme/format-markdown.js';
import { findSection, replaceSection } from '../src/readme/markers.js';
import { renderResultsSection } from '../src/readme/results-section.js';
import { sectionA, sectionE } from '../src/readme/sections.js';
import type { BenchResults, RowResult, ScenarioResult } from '../src/results.js';

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
    ]);
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

describe('the committed README', () => {
  it("has a results section that is exactly what its committed run's results.json generates", () => {
    const readme = readFileSync(`${ROOT}/README.md`, 'utf8');
    const section = findSection(readme);
    expect(section, 'README.md has no bench-results markers').not.toBeNull();
    const folder = section?.folder as string;
    const results = JSON.parse(readFileSync(`${ROOT}/${folder}/results.json`, 'utf8')) as BenchResults;
    expect(results.mode).toBe('full');
    const regenerated = formatMarkdown(replaceSection(readme, folder, renderResultsSection(results, folder)));
    // On failure: the README was edited by hand, or the run changed; run pnpm bench:readme <folder>.
    expect(regenerated).toBe(readme);
  });
});
