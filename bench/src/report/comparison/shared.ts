/** Cell and column helpers every scenario's comparison tables share. */
import { type Cell, type Column, cell } from '../table.js';

export const col = (header: string, numeric = false): Column => (numeric ? { header, numeric } : { header });
export const seedCell = (text: string): Cell => cell(text, 'seed');
/** Seed figures keep the precision they were published with (§B: one decimal; §C and §E: two). */
export const ms = (n: number, digits?: number) => (digits === undefined ? String(n) : n.toFixed(digits));
export const pair = (a: number, b: number, digits?: number) => `${ms(a, digits)} / ${ms(b, digits)} ms`;
