import { DASHBOARD_ANSWER_BYTES } from '../load/queries.js';
import type { BenchResults, RowResult, ScenarioResult } from '../run/results.js';
import { ROUTER } from '../targets/targets.js';
import { gain, markdownTable, ms, num, ratio } from './table.js';

// The README's one-table verdict: the questions users come with, answered by one committed
// run's rows (CPU per request first: on a shared 2-core machine it is steadier than req/s).

const QUERIES = ['GetUserWithProducts', 'ComplexQuery'] as const;

const scenarioOf = (results: BenchResults, id: ScenarioResult['id']) => results.scenarios.find((s) => s.id === id);
const rowOf = (scenario: ScenarioResult | undefined, target: string, variant: string): RowResult | undefined => {
  const row = scenario?.rows.find((each) => each.target === target && each.variant === variant);
  return row?.status === 'ok' ? row : undefined;
};
const cpu = (row: RowResult | undefined) => row?.gatewayCpuSecPer1k;

/** "0.294 vs 0.344 ms (−15%)": `a`'s CPU per request against `b`'s. */
function cpuVersus(a: RowResult | undefined, b: RowResult | undefined): string {
  return `${num(cpu(a), 3)} vs ${num(cpu(b), 3)} ms (${gain(cpu(a), cpu(b))})`;
}

/** One pair of targets on §A's two queries: CPU per request of `a` against `b`. */
function pairOnA(results: BenchResults, a: string, b: string): string {
  const scenario = scenarioOf(results, 'A');
  return QUERIES.map((query) => `${query} ${cpuVersus(rowOf(scenario, a, query), rowOf(scenario, b, query))}`).join(
    '; ',
  );
}

function routerAnswer(results: BenchResults): string {
  const scenario = scenarioOf(results, 'A');
  return QUERIES.map((query) => {
    const ours = rowOf(scenario, 'nest-fastify', query);
    const router = rowOf(scenario, ROUTER, query);
    return (
      `${query}: CPU per request ${ratio(cpu(ours), cpu(router))}, ` +
      `p99 ${ratio(ours?.latencyMs?.p99, router?.latencyMs?.p99)} ` +
      `(${ours?.latencyMs ? ms(ours.latencyMs.p99) : '—'} vs ${router?.latencyMs ? ms(router.latencyMs.p99) : '—'} ms), ` +
      `peak RSS ${ratio(ours?.gatewayPeakRssMb, router?.gatewayPeakRssMb)} ` +
      `(${num(ours?.gatewayPeakRssMb)} vs ${num(router?.gatewayPeakRssMb)} MB)`
    );
  }).join('; ');
}

function hiveAnswer(results: BenchResults): string {
  const scenario = scenarioOf(results, 'A');
  const hives = [...new Set(scenario?.rows.map((row) => row.target).filter((t) => t.startsWith('hive-gateway')))];
  if (hives.length === 0) return 'not in this run';
  return QUERIES.map((query) => {
    const ours = rowOf(scenario, 'nest-fastify', query);
    const best = hives
      .map((target) => rowOf(scenario, target, query))
      .filter((row): row is RowResult => cpu(row) !== undefined)
      .sort((x, y) => (cpu(x) as number) - (cpu(y) as number))[0];
    return `${query}: ${ratio(cpu(ours), cpu(best))} the CPU per request of ${best?.target ?? '—'}`;
  }).join('; ');
}

function pluginAnswer(results: BenchResults): string {
  const scenario = scenarioOf(results, 'D');
  const none = rowOf(scenario, 'nest-fastify', 'none');
  if (!scenario || !none) return 'not in this run';
  return scenario.rows
    .filter((row) => row.target === 'nest-fastify' && row.variant !== 'none' && row.status === 'ok')
    .map((row) => `${row.variant} ${gain(cpu(row), cpu(none))}`)
    .join(', ');
}

/** How far this run's noise reaches: a row that does less work than `none` should not cost more. */
function noiseNote(results: BenchResults): string {
  const scenario = scenarioOf(results, 'D');
  const none = rowOf(scenario, 'nest-fastify', 'none');
  const lighter = rowOf(scenario, 'nest-fastify', 'demand-control-off');
  if (!none || !lighter) return '';
  return (
    ` Read small differences as noise: in the same run, demand control turned off (less work) ` +
    `measured ${gain(cpu(lighter), cpu(none))} against no plugin.`
  );
}

/**
 * §F's deduplication, like for like: the Router's `deduplicate_query` shares identical subgraph
 * fetches in flight, which is our subgraph dedup; our inbound dedup (identical operations share
 * one execution) has no Router counterpart, so "every dedup on" is given for itself.
 */
function dedupAnswer(results: BenchResults): string {
  const scenario = scenarioOf(results, 'F');
  const plain = rowOf(scenario, 'nest-fastify', 'Dashboard · no dedup') ?? rowOf(scenario, 'nest-fastify', 'Dashboard');
  const all = rowOf(scenario, 'nest-fastify', 'Dashboard · dedup');
  const subgraphOnly = rowOf(scenario, 'nest-fastify', 'Dashboard · subgraph dedup');
  const router = rowOf(scenario, ROUTER, 'Dashboard · dedup');
  if (!plain || !all) return 'not in this run';
  const size = `${(DASHBOARD_ANSWER_BYTES / 1024).toFixed(1)} KB`;
  const peer = subgraphOnly
    ? `; subgraph dedup only, as the Router's \`deduplicate_query\`: ${num(cpu(subgraphOnly), 2)} ms against the Router's ${num(cpu(router), 2)} ms`
    : ` (Router with its subgraph dedup: ${num(cpu(router), 2)} ms)`;
  return (
    `Dashboard (${size} answers, every client asking the same): ${num(cpu(plain), 2)} → ${num(cpu(all), 2)} ms ` +
    `of gateway CPU per request with every dedup on (inbound and subgraph)${peer}`
  );
}

/** The README's verdict table for `results`, with links to the full tables and the run's report. */
export function renderVerdict(results: BenchResults, folder: string): string {
  const rows = [
    [
      'Express or Fastify? (NestJS on both)',
      `nest-fastify vs nest-express, CPU-ms per request: ${pairOnA(results, 'nest-fastify', 'nest-express')}`,
    ],
    ['Express or Fastify? (bare)', `fastify vs express: ${pairOnA(results, 'fastify', 'express')}`],
    ['NestJS or bare? (Fastify)', `nest-fastify vs fastify: ${pairOnA(results, 'nest-fastify', 'fastify')}`],
    ['Node or Apollo Router?', `nest-fastify against the Router, ${routerAnswer(results)}`],
    ['Node or Hive Gateway?', `nest-fastify uses ${hiveAnswer(results)}`],
    [
      'What does each plugin cost?',
      `CPU per request over no plugin (§D, GetUserWithProducts): ${pluginAnswer(results)}`,
    ],
    ['What does deduplication buy?', dedupAnswer(results)],
  ];
  const env = results.environment;
  return (
    `_Generated by \`pnpm bench:readme ${folder}\`; \`pnpm test\` fails when it and the committed run disagree._\n\n` +
    `${markdownTable(['question', `answer from run ${results.runId} (${env.cores} cores, Node ${env.node}, 100 connections)`], rows, 2)}\n\n` +
    `Lower CPU per request is better; a negative percentage means the first named is cheaper.${noiseNote(results)} ` +
    `Full tables: [docs/benchmark.md](docs/benchmark.md#results), report: [report.md](${folder}/report.md).\n`
  );
}
