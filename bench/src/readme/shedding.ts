import type { ScenarioResult } from '../run/results.js';
import { Footnotes, markdownTable, ms, num } from './table.js';

/**
 * §H: per row, checkout's latency and errors (the row's stream) beside what became of the batch
 * overload (answered per second, refused).
 */
export function sectionH(scenario: ScenarioResult): string {
  const notes = new Footnotes();
  const rows = scenario.rows.map((row) => {
    const measured = row.status === 'ok' ? row : undefined;
    const batch = row.competing;
    const sent = (measured?.requests ?? 0) + (measured?.errors ?? 0);
    const errorShare =
      row.status === 'failed' && row.errors
        ? '100%'
        : measured && sent > 0
          ? `${num(((measured.errors ?? 0) / sent) * 100, 1)}%`
          : '—';
    return [
      `${row.target}${notes.mark(row)}`,
      row.variant,
      measured?.latencyMs ? `${ms(measured.latencyMs.p50)} / ${ms(measured.latencyMs.p99)}` : '—',
      errorShare,
      num(batch?.okRps),
      batch ? num(batch.errors) : '—',
      num(measured?.gatewayCpuSecPer1k, 3),
    ];
  });
  const table = markdownTable(
    [
      'target',
      'variant',
      'checkout p50 / p99 ms',
      'checkout errors',
      'batch ok/s',
      'batch refused or failed',
      'CPU-ms per checkout request',
    ],
    rows,
    2,
  );
  return notes.notes() ? `${table}\n\n${notes.notes()}` : table;
}
