import { escapeHtml } from './escape-html.js';

/** Ten colours that stay apart on white (Tableau 10). */
export const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#59a14f',
  '#b07aa1',
  '#76b7b2',
  '#9c755f',
  '#d4a017',
  '#ff9da7',
  '#7f7f7f',
] as const;

/** Shortened for a fixed-width label; the full text goes in a `<title>`. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Coordinates rounded for compact markup. */
export const r1 = (n: number) => Math.round(n * 10) / 10;

/** An SVG `<title>` (a tooltip and an accessible name) for raw text. */
export const svgTitle = (text: string) => `<title>${escapeHtml(text)}</title>`;

/** Round steps (1, 2 or 5 × 10ⁿ) from 0 to at least `max`, about `count` of them. */
export function linearTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let t = 0; t < max + step / 2; t += step) ticks.push(Math.round(t / magnitude) * magnitude);
  if ((ticks.at(-1) ?? 0) < max) ticks.push((ticks.at(-1) ?? 0) + step);
  return ticks;
}

/** Log-scale ticks (1, 2, 5 × 10ⁿ) covering [min, max]; only powers of ten when the range is wide. */
export function logTicks(min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const mantissas = hi - lo > 3 ? [1] : [1, 2, 5];
  const all: number[] = [];
  for (let e = lo; e <= hi; e++) for (const m of mantissas) all.push(Number((m * 10 ** e).toPrecision(3)));
  let first = Math.max(
    0,
    all.findLastIndex((t) => t <= min),
  );
  let last = all.findIndex((t) => t >= max);
  if (last === -1) last = all.length - 1;
  // One value (min = max on a tick) still gets an axis around it.
  if (first === last) [first, last] = [Math.max(0, first - 1), Math.min(all.length - 1, last + 1)];
  return all.slice(first, last + 1);
}

/** Tick labels: `0.5`, `20`, `1,000`. */
export function tickLabel(value: number): string {
  return value >= 1
    ? value.toLocaleString('en-US', { maximumFractionDigits: 2 })
    : String(Number(value.toPrecision(2)));
}
