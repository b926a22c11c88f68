import type { RowResult, ScenarioResult } from '../run/results.js';
import {
  formatDeltaMs,
  formatErrors,
  formatLateSends,
  formatLoad,
  formatMsValue,
  formatNumber,
  formatPercent,
  formatRpsValue,
  NONE,
  statusText,
} from './format.js';
import { noteNumbers } from './row-notes.js';

/** How a renderer may colour a cell; plain text renderers ignore it. */
export type Tone = 'good' | 'bad' | 'warn' | 'muted' | 'seed';

export interface Cell {
  readonly text: string;
  readonly tone?: Tone;
  /** Warning notes of the scenario this cell's row depends on: shown as `⚠1`, the row as flagged. */
  readonly notes?: readonly number[];
}

export interface Column {
  readonly header: string;
  /** Right-aligned. */
  readonly numeric?: boolean;
}

/** A table both the Markdown and the HTML renderer draw; every string is raw (unescaped). */
export interface Table {
  readonly title: string;
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly Cell[])[];
  readonly notes?: readonly string[];
}

export const cell = (text: string, tone?: Tone): Cell => (tone ? { text, tone } : { text });

/** A cell that carries the warning marks of the rows it depends on (none: a plain cell). */
export const markedCell = (text: string, notes: readonly number[], tone?: Tone): Cell =>
  notes.length > 0 ? { ...cell(text, tone), notes } : cell(text, tone);

/** The gateway's (or Router's) CPU share during the measured window. */
export function gatewayCpuShare(row: RowResult): number | undefined {
  const cpu = row.cpu;
  return (cpu?.gateway ?? cpu?.router ?? cpu?.[row.target])?.share;
}

/** One load for every row (said once, in the title) or undefined when the rows differ. */
export function sharedLoad(scenario: ScenarioResult): string | undefined {
  const loads = new Set(scenario.rows.map(formatLoad));
  const [only] = loads;
  return loads.size === 1 && only !== NONE ? only : undefined;
}

/** `§A results (100 conn. each)`. */
export function tableTitle(scenario: ScenarioResult, what: string): string {
  const load = sharedLoad(scenario);
  return `§${scenario.id} ${what}${load ? ` (${load} each)` : ''}`;
}

/** The target cell: the name, marked when the row carries a warning. */
export function targetCell(scenario: ScenarioResult, row: RowResult): Cell {
  return markedCell(row.target, noteNumbers(scenario, row));
}

function statusCell(row: RowResult): Cell {
  if (row.status === 'ok') return cell('ok', 'good');
  return cell(statusText(row), row.status === 'not-installed' || row.status === 'skipped' ? 'muted' : 'bad');
}

const ms = (header: string): Column => ({ header: `${header} (ms)`, numeric: true });

/**
 * One line per row: throughput, every latency percentile (p90 included), errors and, at a
 * fixed rate, late sends; §C's deltas and §D's kept share where the scenario has them.
 * Numbers carry their unit in the header, so columns stay narrow.
 */
export function resultsTable(scenario: ScenarioResult): Table {
  const fixedRate = scenario.kind === 'fixed-rate';
  const hasDelta = scenario.rows.some((r) => r.deltaVsBaselineMs);
  const hasKept = scenario.rows.some((r) => r.keptPercent !== undefined);
  const hasSubgraphRequests = scenario.rows.some((r) => r.subgraphRequestsPerRequest !== undefined);
  const hasStatus = scenario.rows.some((r) => r.status !== 'ok');
  // p99.9 where the tail at a fixed offered load is the question (runs before it was recorded have none).
  const hasP999 = fixedRate && scenario.rows.some((r) => r.latencyMs?.p999 !== undefined);
  const load = sharedLoad(scenario);
  const columns: Column[] = [
    { header: 'Target' },
    { header: 'Variant' },
    ...(load ? [] : [{ header: fixedRate ? 'Rate' : 'Connections', numeric: true }]),
    ...(hasStatus ? [{ header: 'Status' }] : []),
    { header: fixedRate ? 'Achieved (req/s)' : 'Throughput (req/s)', numeric: true },
    ...(fixedRate ? [ms('Mean')] : []),
    ms('p50'),
    ms('p90'),
    ms('p95'),
    ms('p99'),
    ...(hasP999 ? [ms('p99.9')] : []),
    ms('Max'),
    { header: 'Errors', numeric: true },
    ...(fixedRate ? [{ header: 'Late sends', numeric: true }] : []),
    ...(hasDelta ? [ms('Δ p50 vs baseline'), ms('Δ p99 vs baseline')] : []),
    ...(hasKept ? [{ header: 'Kept vs no plugin', numeric: true }] : []),
    ...(hasSubgraphRequests ? [{ header: 'Subgraph req. per request', numeric: true }] : []),
  ];
  const rows = scenario.rows.map((row): Cell[] => {
    const l = row.latencyMs;
    return [
      targetCell(scenario, row),
      cell(row.variant),
      ...(load ? [] : [cell(formatLoad(row))]),
      ...(hasStatus ? [statusCell(row)] : []),
      cell(formatRpsValue(row.rps)),
      ...(fixedRate ? [cell(formatMsValue(l?.mean))] : []),
      cell(formatMsValue(l?.p50)),
      cell(formatMsValue(l?.p90)),
      cell(formatMsValue(l?.p95)),
      cell(formatMsValue(l?.p99)),
      ...(hasP999 ? [cell(formatMsValue(l?.p999))] : []),
      cell(formatMsValue(l?.max)),
      cell(formatErrors(row), row.errors ? 'bad' : undefined),
      ...(fixedRate ? [cell(formatLateSends(row.schedule), lateTone(row))] : []),
      ...(hasDelta
        ? [cell(formatDeltaMs(row.deltaVsBaselineMs?.p50)), cell(formatDeltaMs(row.deltaVsBaselineMs?.p99))]
        : []),
      ...(hasKept ? [cell(formatPercent(row.keptPercent))] : []),
      ...(hasSubgraphRequests ? [cell(formatSubgraphRequests(row))] : []),
    ];
  });
  return { title: tableTitle(scenario, 'results'), columns, rows, notes: failedAtNotes(scenario) };
}

/** `1.42 (users 0.20, products 0.61, reviews 0.61)`: §G, per client request. */
function formatSubgraphRequests(row: RowResult): string {
  if (row.subgraphRequestsPerRequest === undefined) return NONE;
  const parts = Object.entries(row.subgraphRequestsBySubgraph ?? {}).map(([name, n]) => `${name} ${n.toFixed(2)}`);
  return `${row.subgraphRequestsPerRequest.toFixed(2)}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

function lateTone(row: RowResult): 'warn' | undefined {
  return row.warnings?.some((w) => /late/.test(w)) ? 'warn' : undefined;
}

/** Fixed-rate percentiles include failures, counted at the request timeout: say at what value. */
function failedAtNotes(scenario: ScenarioResult): string[] {
  const timeouts = [...new Set(scenario.rows.flatMap((r) => (r.failedAtMs === undefined ? [] : [r.failedAtMs])))];
  if (timeouts.length === 0) return [];
  const at = timeouts.map((t) => `${formatNumber(t)} ms`).join(' or ');
  return [
    `Latencies are measured from each request's intended start and include every failed request, counted at ${at} (its timeout): errors raise the tail, never hide it.`,
  ];
}
