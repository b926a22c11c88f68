/**
 * The pieces every chart is built from. Charts are HTML: labels, values and statuses are text
 * the browser lays out (they wrap, never get cut), and marks are boxes placed in percent of
 * the plot's width, so a chart fits any page width without measuring text here.
 */
import { escapeHtml } from '../escape-html.js';
import { noteId, noteMark } from '../row-notes.js';
import { type Scale, tickLabel } from './scale.js';

/** A row's label: the target's colour swatch, the text, and the ⚠ marks of its warnings. */
export interface RowLabel {
  readonly text: string;
  /** The row's target, whose colour this is (`data-target`, for readers' tools and tests). */
  readonly target: string;
  readonly color: string;
  readonly scenarioId: string;
  /** Warning notes of the scenario the row's numbers depend on. */
  readonly notes: readonly number[];
}

/** A row with no number to draw says why, in place of the mark. */
export interface RowStatus {
  readonly text: string;
  readonly tone: 'bad' | 'muted';
  /** The full message when `text` is its short form. */
  readonly tip?: string;
}

/** A coordinate for a style attribute: `37.25%`. */
export const pct = (percent: number) => `${Math.round(percent * 100) / 100}%`;

/** `style="…"` with escaping, for values that may come from results (colours do not, but cheaply safe). */
export const style = (css: string) => ` style="${escapeHtml(css)}"`;

export function labelCell(label: RowLabel): string {
  const warned = label.notes.length > 0;
  const marks = warned
    ? ` <a class="mark" href="#${noteId(label.scenarioId, label.notes[0] ?? 0)}">${noteMark(label.notes)}</a>`
    : '';
  return (
    `<div class="label${warned ? ' warned' : ''}" data-target="${escapeHtml(label.target)}">` +
    `<span class="sw"${style(`background:${label.color}`)}></span>` +
    `<span class="name">${escapeHtml(label.text)}</span>${marks}</div>`
  );
}

export function statusText(status: RowStatus): string {
  const tip = status.tip ? ` title="${escapeHtml(status.tip)}"` : '';
  return `<span class="status tone-${status.tone}"${tip}>${escapeHtml(status.text)}</span>`;
}

/** Vertical grid lines at the ticks, drawn in each row's plot area. */
export function gridLines(scale: Scale, extra: readonly number[] = []): string {
  return [...scale.ticks.map((t) => ['gl', t] as const), ...extra.map((v) => ['gl ref', v] as const)]
    .map(([cls, t]) => `<span class="${cls}"${style(`left:${pct(scale.at(t))}`)}></span>`)
    .join('');
}

/** The axis under a plot: tick labels and the axis title, in the plot column. */
export function axisRow(scale: Scale, title: string, trailingColumn: boolean): string {
  const ticks = scale.ticks
    .map(
      (t) => `<span class="tick"${style(`left:${pct(scale.at(t))}`)}>${escapeHtml(tickLabel(t, scale.compact))}</span>`,
    )
    .join('');
  const tail = trailingColumn ? '<div></div>' : '';
  return (
    `<div></div><div class="axis"><div class="area">${ticks}</div></div>${tail}` +
    `<div></div><div class="axis-title">${escapeHtml(title)}</div>${tail}`
  );
}

/** A heading across the plot's columns: the query, the customization, the store. */
export function groupHeading(text: string): string {
  return `<div class="group">${escapeHtml(text)}</div>`;
}

/**
 * Room, in em, a value label needs beside a bar: a generous per-character estimate (digits are
 * about 0.55 em in sans-serif fonts, `m`, `%` and `⚠` wider), so the label stays in the plot.
 */
export function textWidthEm(text: string): number {
  let em = 0;
  for (const ch of text) {
    if (/[0-9a-z]/.test(ch)) em += /[mw]/.test(ch) ? 0.9 : 0.6;
    else if (/[.,: ·/]/.test(ch)) em += 0.35;
    else em += 0.95;
  }
  return Math.ceil(em * 10) / 10 + 0.8;
}

export interface FigureOptions {
  readonly id: string;
  readonly title: string;
  /** `higher is better`: said beside the title. */
  readonly direction?: string;
  readonly caption?: string;
  /** Ready HTML (a legend of marks) under the caption. */
  readonly legend?: string;
  readonly body: string;
}

export function figure(options: FigureOptions): string {
  const direction = options.direction ? ` <span class="direction">${escapeHtml(options.direction)}</span>` : '';
  const caption = options.caption ? `<span class="caption">${escapeHtml(options.caption)}</span>` : '';
  return (
    `<figure class="chart" id="${escapeHtml(options.id)}"><figcaption>` +
    `<span class="chart-title">${escapeHtml(options.title)}</span>${direction}${caption}</figcaption>` +
    `${options.legend ?? ''}${options.body}</figure>`
  );
}

/** Small multiples side by side (wrapping on narrow pages), each with its own title. */
export function panels(list: readonly { readonly title: string; readonly body: string }[]): string {
  const items = list.map((p) => `<section class="panel"><h4>${escapeHtml(p.title)}</h4>${p.body}</section>`).join('');
  return `<div class="panels">${items}</div>`;
}
