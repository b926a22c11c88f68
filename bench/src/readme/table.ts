import { formatMsValue, formatNumber, formatRatio } from '../report/format.js';
import type { RowResult } from '../run/results.js';

/**
 * A plain Markdown table; cells are written as given (our own numbers and names). The first
 * `textColumns` columns are left-aligned, the rest (numbers) right-aligned.
 */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  textColumns = 1,
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const alignment = headers.map((_, i) => (i < textColumns ? '---' : '---:'));
  return [line(headers), line(alignment), ...rows.map(line)].join('\n');
}

/** 12,500 / 0.38 / 1.25: thousands separators, `digits` decimals. */
export function num(value: number | undefined, digits = 0): string {
  return value === undefined || !Number.isFinite(value) ? '—' : formatNumber(value, digits);
}

/** Milliseconds with about three significant digits, as the report writes them. */
export const ms = formatMsValue;

/** +12% / −4%: how much `value` exceeds `base`. */
export function gain(value: number | undefined, base: number | undefined): string {
  if (value === undefined || base === undefined || base === 0) return '—';
  const percent = (value / base - 1) * 100;
  return `${percent >= 0 ? '+' : '−'}${num(Math.abs(percent))}%`;
}

export function ratio(value: number | undefined, base: number | undefined): string {
  return value === undefined || base === undefined || base === 0 ? '—' : formatRatio(value / base);
}

/**
 * Numbered ⚠ footnotes for rows with warnings: `mark(row)` gives the marker to put beside
 * the row (empty for a clean one), `notes()` the lines to print under the table.
 */
export class Footnotes {
  readonly #notes: string[] = [];

  mark(row: RowResult | undefined): string {
    if (!row) return '';
    if (row.status !== 'ok') return ` (${row.status})`;
    if (!row.warnings?.length) return '';
    this.#notes.push(`${row.target} · ${row.variant}: ${row.warnings.join('; ')}`);
    return ` ⚠${this.#notes.length}`;
  }

  notes(): string {
    return this.#notes.map((note, i) => `⚠${i + 1} ${note}`).join('\\\n');
  }
}

/**
 * Numbered ⚠ notes for generated lines that each read several run rows (ours and the Router's,
 * say): `marks(scenario, rows)` gives the markers of the warnings those rows carry, and
 * `notes()` one line per distinct warning, in the run's own words, naming every row that carries
 * it. A verdict drawn from a warned row is printed with its warning, never without.
 */
interface WarningNote {
  readonly warning: string;
  /** `§C apollo-router · baseline`: the rows that carry it. */
  readonly rows: string[];
}

export class RowWarnings {
  readonly #notes: WarningNote[] = [];

  marks(scenario: string, rows: readonly (RowResult | undefined)[]): string {
    const numbers: number[] = [];
    for (const row of rows) {
      for (const warning of row?.warnings ?? []) {
        const name = `§${scenario} ${row?.target} · ${row?.variant}`;
        let index = this.#notes.findIndex((note) => note.warning === warning);
        if (index < 0) index = this.#notes.push({ warning, rows: [] }) - 1;
        const note = this.#notes[index] as WarningNote;
        if (!note.rows.includes(name)) note.rows.push(name);
        if (!numbers.includes(index + 1)) numbers.push(index + 1);
      }
    }
    return numbers.map((n) => ` ⚠${n}`).join('');
  }

  /** The notes, one line each, for under the table (empty when no row read was warned about). */
  notes(): string {
    return this.#notes.map(({ warning, rows }, i) => `⚠${i + 1} ${rows.join(', ')}: ${warning}`).join('\\\n');
  }
}
