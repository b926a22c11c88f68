import { DASHBOARD_ANSWER_BYTES } from '../load/queries.js';
import type { BenchResults, RowResult, ScenarioResult } from '../run/results.js';
import { ROUTER } from '../targets/targets.js';
import { gain, markdownTable, ms, num, RowWarnings, ratio } from './table.js';

// The README's one-table verdict: the questions users come with, answered by one committed
// run's rows (CPU per request first: on a shared 2-core machine it is steadier than req/s).

const QUERIES = ['GetUserWithProducts', 'ComplexQuery'] as const;

/** The rows one answer was read from, with their scenario: their warnings go with the answer. */
type Read = Array<readonly [scenario: ScenarioResult['id'], row: RowResult]>;

const scenarioOf = (results: BenchResults, id: ScenarioResult['id']) => results.scenarios.find((s) => s.id === id);
const rowOf = (
  scenario: ScenarioResult | undefined,
  target: string,
  variant: string,
  read?: Read,
): RowResult | undefined => {
  const row = scenario?.rows.find((each) => each.target === target && each.variant === variant);
  if (row?.status !== 'ok') return undefined;
  if (scenario && read && !read.some(([, each]) => each === row)) read.push([scenario.id, row]);
  return row;
};
const cpu = (row: RowResult | undefined) => row?.gatewayCpuSecPer1k;

/** "0.294 vs 0.344 ms (−15%)": `a`'s CPU per request against `b`'s. */
function cpuVersus(a: RowResult | undefined, b: RowResult | undefined): string {
  return `${num(cpu(a), 3)} vs ${num(cpu(b), 3)} ms (${gain(cpu(a), cpu(b))})`;
}

/** One pair of targets on §A's two queries: CPU per request of `a` against `b`. */
function pairOnA(results: BenchResults, a: string, b: string, read: Read): string {
  const scenario = scenarioOf(results, 'A');
  return QUERIES.map(
    (query) => `${query} ${cpuVersus(rowOf(scenario, a, query, read), rowOf(scenario, b, query, read))}`,
  ).join('; ');
}

function routerAnswer(results: BenchResults, read: Read): string {
  const scenario = scenarioOf(results, 'A');
  return QUERIES.map((query) => {
    const ours = rowOf(scenario, 'nest-fastify', query, read);
    const router = rowOf(scenario, ROUTER, query, read);
    return (
      `${query}: CPU per request ${ratio(cpu(ours), cpu(router))}, ` +
      `p99 ${ratio(ours?.latencyMs?.p99, router?.latencyMs?.p99)} ` +
      `(${ours?.latencyMs ? ms(ours.latencyMs.p99) : '—'} vs ${router?.latencyMs ? ms(router.latencyMs.p99) : '—'} ms), ` +
      `peak RSS ${ratio(ours?.gatewayPeakRssMb, router?.gatewayPeakRssMb)} ` +
      `(${num(ours?.gatewayPeakRssMb)} vs ${num(router?.gatewayPeakRssMb)} MB)`
    );
  }).join('; ');
}

function hiveAnswer(results: BenchResults, read: Read): string {
  const scenario = scenarioOf(results, 'A');
  const hives = [...new Set(scenario?.rows.map((row) => row.target).filter((t) => t.startsWith('hive-gateway')))];
  if (hives.length === 0) return 'not in this run';
  return QUERIES.map((query) => {
    const ours = rowOf(scenario, 'nest-fastify', query, read);
    const best = hives
      .map((target) => rowOf(scenario, target, query))
      .filter((row): row is RowResult => cpu(row) !== undefined)
      .sort((x, y) => (cpu(x) as number) - (cpu(y) as number))[0];
    if (best) rowOf(scenario, best.target, query, read);
    return `${query}: ${ratio(cpu(ours), cpu(best))} the CPU per request of ${best?.target ?? '—'}`;
  }).join('; ');
}

function pluginAnswer(results: BenchResults, read: Read): string {
  const scenario = scenarioOf(results, 'D');
  const none = rowOf(scenario, 'nest-fastify', 'none', read);
  if (!scenario || !none) return 'not in this run';
  return scenario.rows
    .filter((row) => row.target === 'nest-fastify' && row.variant !== 'none' && row.status === 'ok')
    .map((row) => `${row.variant} ${gain(cpu(rowOf(scenario, row.target, row.variant, read)), cpu(none))}`)
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
function dedupAnswer(results: BenchResults, read: Read): string {
  const scenario = scenarioOf(results, 'F');
  const plain =
    rowOf(scenario, 'nest-fastify', 'Dashboard · no dedup', read) ?? rowOf(scenario, 'nest-fastify', 'Dashboard', read);
  const all = rowOf(scenario, 'nest-fastify', 'Dashboard · dedup', read);
  const subgraphOnly = rowOf(scenario, 'nest-fastify', 'Dashboard · subgraph dedup', read);
  const router = rowOf(scenario, ROUTER, 'Dashboard · dedup', read);
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

/**
 * The README's verdict table for `results`, with links to the full tables and the run's report.
 * A question answered from rows the run warned about carries ⚠ markers, and the run's warnings
 * are printed under the table.
 */
export function renderVerdict(results: BenchResults, folder: string): string {
  const warnings = new RowWarnings();
  const answer = (question: string, reply: (read: Read) => string): [string, string] => {
    const read: Read = [];
    const text = reply(read);
    return [question + read.map(([scenario, row]) => warnings.marks(scenario, [row])).join(''), text];
  };
  const rows = [
    answer(
      'Express or Fastify? (NestJS on both)',
      (read) =>
        `nest-fastify vs nest-express, CPU-ms per request: ${pairOnA(results, 'nest-fastify', 'nest-express', read)}`,
    ),
    answer(
      'Express or Fastify? (bare)',
      (read) => `fastify vs express: ${pairOnA(results, 'fastify', 'express', read)}`,
    ),
    answer(
      'NestJS or bare? (Fastify)',
      (read) => `nest-fastify vs fastify: ${pairOnA(results, 'nest-fastify', 'fastify', read)}`,
    ),
    answer('Node or Apollo Router?', (read) => `nest-fastify against the Router, ${routerAnswer(results, read)}`),
    answer('Node or Hive Gateway?', (read) => `nest-fastify uses ${hiveAnswer(results, read)}`),
    answer(
      'What does each plugin cost?',
      (read) => `CPU per request over no plugin (§D, GetUserWithProducts): ${pluginAnswer(results, read)}`,
    ),
    answer('What does deduplication buy?', (read) => dedupAnswer(results, read)),
  ];
  const env = results.environment;
  const notes = warnings.notes() ? `${warnings.notes()}\n\n` : '';
  return (
    `_Generated by \`pnpm bench:readme ${folder}\`; \`pnpm test\` fails when it and the committed run disagree._\n\n` +
    `${markdownTable(['question', `answer from run ${results.runId} (${env.cores} cores, Node ${env.node}, 100 connections)`], rows, 2)}\n\n` +
    notes +
    `Lower CPU per request is better; a negative percentage means the first named is cheaper.` +
    `${notes ? ' ⚠: an answer read from a row the run warned about, not a measure of the target alone.' : ''}` +
    `${noiseNote(results)} ` +
    `Full tables: [docs/benchmark.md](docs/benchmark.md#results), report: [report.md](${folder}/report.md).\n`
  );
}
