import type { RowResult, ScenarioResult } from '../run/results.js';
import {
  formatCpuSecValue,
  formatLoad,
  formatMsValue,
  formatNumber,
  formatSaturated,
  formatShare,
  NONE,
} from './format.js';
import {
  type Cell,
  type Column,
  cell,
  gatewayCpuShare,
  sharedLoad,
  type Table,
  tableTitle,
  targetCell,
} from './table.js';

/** The groups a target's own CPU is counted under: saturating them is what a closed loop should do. */
const OWN_GROUPS = ['gateway', 'router'];

/** True when something other than the target itself ran out of CPU during the row. */
export function othersSaturated(row: RowResult): boolean {
  return (row.saturated ?? []).some((group) => !OWN_GROUPS.includes(group) && group !== row.target);
}

type Scope = NonNullable<RowResult['peakRssScope']> | 'unknown';

const RSS_HEADER: Readonly<Record<Scope | 'mixed', string>> = {
  row: "Peak RSS in the row's window (MB)",
  process: 'Peak RSS since the process started (MB)',
  unknown: 'Peak RSS (MB)',
  mixed: 'Peak RSS (MB; * since the process started)',
};

/** Whether the memory column is each row's own peak, the process's lifetime peak, or a mix. */
function rssScope(scenario: ScenarioResult): Scope | 'mixed' {
  const scopes = new Set(
    scenario.rows.filter((r) => r.gatewayPeakRssMb !== undefined).map((r): Scope => r.peakRssScope ?? 'unknown'),
  );
  if (scopes.size > 1) return 'mixed';
  return [...scopes][0] ?? 'unknown';
}

function rssCell(row: RowResult, scope: Scope | 'mixed'): Cell {
  if (row.gatewayPeakRssMb === undefined) return cell(NONE);
  const lifetime = scope === 'mixed' && row.peakRssScope === 'process';
  return cell(`${formatNumber(row.gatewayPeakRssMb)}${lifetime ? ' *' : ''}`);
}

const GC_COLUMNS: readonly Column[] = [
  { header: 'Allocated KB per req', numeric: true },
  { header: 'Promoted KB per req', numeric: true },
  { header: 'Full GCs (main-thread ms)', numeric: true },
];

const GC_NOTE =
  "Allocated and promoted: from our gateway's --trace-gc-nvp lines in the row's window, per successful request (1 KB = 1,000 bytes); " +
  'promoted bytes fill the old generation, whose full collections (mark-compact: final pause plus incremental marking steps) stall every request in flight.';

function gcCells(row: RowResult): Cell[] {
  const gc = row.gc;
  if (!gc) return [cell(NONE), cell(NONE), cell(NONE)];
  return [
    cell(formatNumber(gc.allocatedKbPerRequest, 1)),
    cell(formatNumber(gc.promotedKbPerRequest, 1)),
    cell(`${gc.markCompacts} (${formatNumber(gc.markCompactPauseMs)})`),
  ];
}

/**
 * Where the CPU went and what memory the target held: its CPU share and CPU per 1,000
 * requests, its peak RSS (labelled with the window it covers), every saturated group, and at a
 * fixed rate the worst send lag. A second table so neither is wider than the page.
 */
export function resourcesTable(scenario: ScenarioResult): Table {
  const fixedRate = scenario.kind === 'fixed-rate';
  const load = sharedLoad(scenario);
  const scope = rssScope(scenario);
  const hasGc = scenario.rows.some((r) => r.gc);
  const columns: Column[] = [
    { header: 'Target' },
    { header: 'Variant' },
    ...(load ? [] : [{ header: fixedRate ? 'Rate' : 'Connections', numeric: true }]),
    { header: 'Target CPU (share of its CPUs)', numeric: true },
    { header: 'Target CPU-seconds per 1k req', numeric: true },
    { header: RSS_HEADER[scope], numeric: true },
    ...(hasGc ? GC_COLUMNS : []),
    { header: 'Saturated (≥ 90% of its CPUs)' },
    ...(fixedRate ? [{ header: 'Worst send lag (ms)', numeric: true }] : []),
  ];
  const rows = scenario.rows.map((row): Cell[] => [
    targetCell(scenario, row),
    cell(row.variant),
    ...(load ? [] : [cell(formatLoad(row))]),
    cell(formatShare(gatewayCpuShare(row))),
    cell(formatCpuSecValue(row.gatewayCpuSecPer1k)),
    rssCell(row, scope),
    ...(hasGc ? gcCells(row) : []),
    cell(formatSaturated(row.saturated), othersSaturated(row) ? 'warn' : undefined),
    ...(fixedRate ? [cell(formatMsValue(row.schedule?.maxLagMs))] : []),
  ]);
  const notes = [
    ...(scope === 'mixed'
      ? [
          "* the process's lifetime peak: resetting its peak for this row was refused. Other rows: the row's own window.",
        ]
      : []),
    ...(fixedRate
      ? []
      : [
          'A target at 100% of its own CPUs is the expected end of a closed loop; anything else saturated is a warning (⚠).',
        ]),
    ...(hasGc ? [GC_NOTE] : []),
  ];
  return { title: tableTitle(scenario, 'CPU and memory'), columns, rows, notes };
}
