import type { RowResult, ScenarioResult } from '../results.js';
import {
  bottleneckWarning,
  formatCount,
  formatCpuPer1k,
  formatDeltaMs,
  formatLoad,
  formatMs,
  formatPercent,
  formatRps,
  formatRssMb,
  formatShare,
  groupName,
  isGatewayBottleneck,
  NONE,
  statusText,
} from './format.js';
import { rowLabels } from './series.js';

/** How a renderer may colour a cell; plain text renderers ignore it. */
export type Tone = 'good' | 'bad' | 'warn' | 'muted' | 'seed';

export interface Cell {
  readonly text: string;
  readonly tone?: Tone;
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

/** The gateway's (or Router's) CPU share during the measured window. */
export function gatewayCpuShare(row: RowResult): number | undefined {
  const cpu = row.cpu;
  return (cpu?.gateway ?? cpu?.router ?? cpu?.[row.target])?.share;
}

function statusCell(row: RowResult): Cell {
  if (row.status === 'ok') return cell('ok', 'good');
  return cell(statusText(row), row.status === 'not-installed' || row.status === 'skipped' ? 'muted' : 'bad');
}

function bottleneckCell(row: RowResult): Cell {
  if (row.bottleneck === undefined) return cell(NONE);
  return isGatewayBottleneck(row) ? cell(groupName(row.bottleneck)) : cell(`⚠ ${groupName(row.bottleneck)}`, 'warn');
}

function loadInWords(row: RowResult): string {
  return row.rate !== undefined ? `${formatLoad(row)}` : `${row.connections} connections`;
}

/** One line per row: status, load, throughput, latency percentiles, errors, CPU, memory, bottleneck. */
export function resultsTable(scenario: ScenarioResult): Table {
  const fixedRate = scenario.kind === 'fixed-rate';
  const hasDelta = scenario.rows.some((r) => r.deltaVsBaselineMs);
  const hasKept = scenario.rows.some((r) => r.keptPercent !== undefined);
  const hasBottleneck = scenario.rows.some((r) => r.bottleneck !== undefined);
  // One load for every row: say it in the title rather than repeat it on each line.
  const loads = new Set(scenario.rows.map(formatLoad));
  const sameLoad = loads.size === 1 ? [...loads][0] : undefined;
  const columns: Column[] = [
    { header: 'Target' },
    { header: 'Variant' },
    { header: 'Status' },
    ...(sameLoad ? [] : [{ header: fixedRate ? 'Rate' : 'Connections', numeric: true }]),
    { header: 'Throughput', numeric: true },
    ...(fixedRate ? [{ header: 'Mean', numeric: true }] : []),
    { header: 'p50', numeric: true },
    { header: 'p95', numeric: true },
    { header: 'p99', numeric: true },
    { header: 'Max', numeric: true },
    { header: 'Errors', numeric: true },
    { header: 'Gateway CPU', numeric: true },
    { header: 'Gateway CPU per 1k req', numeric: true },
    { header: 'Peak RSS', numeric: true },
    ...(hasBottleneck ? [{ header: 'Bottleneck' }] : []),
    ...(hasDelta
      ? [
          { header: 'Δ p50 vs baseline', numeric: true },
          { header: 'Δ p99 vs baseline', numeric: true },
        ]
      : []),
    ...(hasKept ? [{ header: 'Kept vs no plugin', numeric: true }] : []),
  ];
  const rows = scenario.rows.map((row): Cell[] => {
    const l = row.latencyMs;
    return [
      cell(row.target),
      cell(row.variant),
      statusCell(row),
      ...(sameLoad ? [] : [cell(formatLoad(row))]),
      cell(formatRps(row.rps)),
      ...(fixedRate ? [cell(formatMs(l?.mean))] : []),
      cell(formatMs(l?.p50)),
      cell(formatMs(l?.p95)),
      cell(formatMs(l?.p99)),
      cell(formatMs(l?.max)),
      cell(formatCount(row.errors), row.errors ? 'bad' : undefined),
      cell(formatShare(gatewayCpuShare(row))),
      cell(formatCpuPer1k(row.gatewayCpuSecPer1k)),
      cell(formatRssMb(row.gatewayPeakRssMb)),
      ...(hasBottleneck ? [bottleneckCell(row)] : []),
      ...(hasDelta
        ? [cell(formatDeltaMs(row.deltaVsBaselineMs?.p50)), cell(formatDeltaMs(row.deltaVsBaselineMs?.p99))]
        : []),
      ...(hasKept ? [cell(formatPercent(row.keptPercent))] : []),
    ];
  });
  const only = scenario.rows[0];
  const each = sameLoad && sameLoad !== NONE && only ? ` (${loadInWords(only)} each)` : '';
  const title = `§${scenario.id} results${each}`;
  return { title, columns, rows, notes: bottleneckNotes(scenario) };
}

/** `⚠ fastify · ComplexQuery: throughput limited by the subgraphs, not the gateway`, one per flagged row. */
export function bottleneckNotes(scenario: ScenarioResult): string[] {
  const labels = rowLabels(scenario.rows);
  return scenario.rows.flatMap((row, i) => {
    const warning = bottleneckWarning(row);
    return warning ? [`⚠ ${labels[i]}: ${warning}`] : [];
  });
}
