import type { ScenarioResult } from '../../run/results.js';
import { formatMsValue, formatNumber, NONE } from '../format.js';
import { cell, type Table, targetCell } from '../table.js';

/**
 * §F's @defer rows: when the first part arrived (what a page can render) beside the whole
 * answer, and the share of the whole answer's time the first part took.
 */
export function comparisonF(scenario: ScenarioResult): Table[] {
  const rows = scenario.rows.filter((row) => row.firstPartMs && row.latencyMs);
  if (rows.length === 0) return [];
  return [
    {
      title: '§F @defer: time to the first part and to the whole answer',
      columns: [
        { header: 'Target' },
        { header: 'Variant' },
        { header: 'First part p50 (ms)', numeric: true },
        { header: 'First part p99 (ms)', numeric: true },
        { header: 'Whole answer p50 (ms)', numeric: true },
        { header: 'Whole answer p99 (ms)', numeric: true },
        { header: 'First / whole (p50)', numeric: true },
      ],
      rows: rows.map((row) => {
        const first = row.firstPartMs;
        const whole = row.latencyMs;
        const share = first && whole && whole.p50 > 0 ? first.p50 / whole.p50 : undefined;
        return [
          targetCell(scenario, row),
          cell(row.variant),
          cell(formatMsValue(first?.p50)),
          cell(formatMsValue(first?.p99)),
          cell(formatMsValue(whole?.p50)),
          cell(formatMsValue(whole?.p99)),
          cell(share === undefined ? NONE : `${formatNumber(Math.round(share * 100))}%`),
        ];
      }),
      notes: [
        "Timed by the harness's own closed loop (autocannon times only whole answers): from the send to the first part complete (its JSON and the next delimiter received) and to the last part.",
      ],
    },
  ];
}
