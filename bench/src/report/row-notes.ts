import type { RowResult, ScenarioResult } from '../run/results.js';
import { formatLoad } from './format.js';

/** One warned row of a scenario: every table and chart marks it `⚠n`, and the notes say why. */
export interface RowNote {
  readonly number: number;
  readonly row: RowResult;
  /** `fastify · ComplexQuery`, with the load where target and variant repeat. */
  readonly label: string;
  readonly warnings: readonly string[];
}

/** `target · variant`, with ` · 300 req/s` added where target and variant alone repeat. */
export function rowLabels(rows: readonly RowResult[]): string[] {
  const count = new Map<string, number>();
  const key = (r: RowResult) => `${r.target}\u0000${r.variant}`;
  for (const r of rows) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
  return rows.map((r) => `${r.target} · ${r.variant}${(count.get(key(r)) ?? 0) > 1 ? ` · ${formatLoad(r)}` : ''}`);
}

/** The scenario's rows with warnings, numbered from 1 in row order. */
export function rowNotes(scenario: ScenarioResult): RowNote[] {
  const labels = rowLabels(scenario.rows);
  const notes: RowNote[] = [];
  scenario.rows.forEach((row, i) => {
    if (!row.warnings?.length) return;
    notes.push({ number: notes.length + 1, row, label: labels[i] ?? row.target, warnings: row.warnings });
  });
  return notes;
}

/**
 * The note numbers of `rows` (a row and the rows its numbers derive from, such as a §C
 * baseline), without repeats, ascending. Empty when none of them carries a warning.
 */
export function noteNumbers(scenario: ScenarioResult, ...rows: readonly (RowResult | undefined)[]): number[] {
  const notes = rowNotes(scenario);
  const numbers = rows.flatMap((row) => notes.filter((n) => n.row === row).map((n) => n.number));
  return [...new Set(numbers)].sort((a, b) => a - b);
}

/** `⚠1`, `⚠1,3`: the mark a warned row carries in tables and charts. */
export function noteMark(numbers: readonly number[]): string {
  return numbers.length === 0 ? '' : `⚠${numbers.join(',')}`;
}

/** The anchor of a note in the HTML report. */
export function noteId(scenarioId: string, number: number): string {
  return `note-${scenarioId}-${number}`;
}
