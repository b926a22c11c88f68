import type { LatencySummary, ScenarioResult } from '../results.js';
import { escapeHtml } from './escape-html.js';
import { formatMs } from './format.js';
import { type SeriesStyle, seriesStyles, shortLabel } from './series.js';
import { logTicks, r1, svgTitle, tickLabel } from './svg.js';

const WIDTH = 960;
const PLOT_LEFT = 70;
const PLOT_RIGHT = 600;
const LEGEND_X = 630;
const TOP = 40;
const MIN_PLOT_H = 220;
const LEGEND_ROW_H = 20;
const BOTTOM = 44;

const PERCENTILES: readonly (readonly [keyof LatencySummary, string])[] = [
  ['p50', 'p50'],
  ['p90', 'p90'],
  ['p95', 'p95'],
  ['p99', 'p99'],
  ['max', 'max'],
];

/** Smallest value a log axis can place (a 0 ms latency is drawn at 1 µs). */
const FLOOR_MS = 0.001;

/**
 * One line per row across p50, p90, p95, p99 and max on a log scale, so a sub-millisecond
 * p50 and a 300 ms max fit on one chart. Colours match the throughput chart's bars.
 */
export function latencyChart(scenario: ScenarioResult): string {
  const styles = seriesStyles(scenario);
  const series = scenario.rows
    .map((row, i) => ({ row, style: styles[i] as SeriesStyle, latency: row.latencyMs }))
    .filter((s): s is typeof s & { latency: LatencySummary } => s.latency !== undefined);
  const id = `lat-${scenario.id}`;
  const plotH = Math.max(MIN_PLOT_H, series.length * LEGEND_ROW_H);
  const plotBottom = TOP + plotH;
  const height = plotBottom + BOTTOM;
  const open =
    `<svg class="chart chart-latency" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" ` +
    `role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${id}-title">§${scenario.id} latency percentiles, milliseconds, log scale (lower is better)</title>` +
    `<text class="chart-title" x="8" y="18">Latency by percentile, ms, log scale (lower is better)</text>`;
  if (series.length === 0) {
    return `${open}<text class="no-data" x="${PLOT_LEFT}" y="${TOP + 30}">No row has latencies to plot.</text></svg>`;
  }

  const values = series.flatMap((s) => PERCENTILES.map(([k]) => Math.max(FLOOR_MS, s.latency[k])));
  const ticks = logTicks(Math.min(...values), Math.max(...values));
  const lo = Math.log10(ticks[0] ?? FLOOR_MS);
  const hi = Math.log10(ticks.at(-1) ?? 1);
  const y = (v: number) => plotBottom - (plotH * (Math.log10(Math.max(FLOOR_MS, v)) - lo)) / (hi - lo || 1);
  const step = (PLOT_RIGHT - PLOT_LEFT) / (PERCENTILES.length - 1);
  const x = (i: number) => PLOT_LEFT + i * step;

  const grid =
    ticks
      .map((t) => {
        const gy = r1(y(t));
        return (
          `<line class="grid" x1="${PLOT_LEFT}" y1="${gy}" x2="${PLOT_RIGHT}" y2="${gy}"/>` +
          `<text class="tick" x="${PLOT_LEFT - 8}" y="${gy + 4}" text-anchor="end">${tickLabel(t)}</text>`
        );
      })
      .join('') +
    PERCENTILES.map(
      ([, name], i) =>
        `<line class="grid" x1="${r1(x(i))}" y1="${TOP}" x2="${r1(x(i))}" y2="${plotBottom}"/>` +
        `<text class="tick" x="${r1(x(i))}" y="${plotBottom + 18}" text-anchor="middle">${name}</text>`,
    ).join('');

  const lines = series
    .map(({ style, latency }) => {
      const { color, dash, label } = style;
      const points = PERCENTILES.map(([k], i) => [r1(x(i)), r1(y(latency[k]))] as const);
      const d = points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px} ${py}`).join(' ');
      const dots = points
        .map(
          ([px, py], i) =>
            `<circle class="point" cx="${px}" cy="${py}" r="3.5" fill="${color}">` +
            `${svgTitle(`${label} ${PERCENTILES[i]?.[1]}: ${formatMs(latency[PERCENTILES[i]?.[0] ?? 'p50'])}`)}</circle>`,
        )
        .join('');
      return (
        `<path class="series" d="${d}" fill="none" stroke="${color}" stroke-width="2"` +
        `${dash ? ` stroke-dasharray="${dash}"` : ''}>${svgTitle(label)}</path>${dots}`
      );
    })
    .join('');

  const legend = series
    .map(({ row, style }, i) => {
      const ly = TOP + 6 + i * LEGEND_ROW_H;
      const { color, dash, label } = style;
      return (
        `<line x1="${LEGEND_X}" y1="${ly}" x2="${LEGEND_X + 28}" y2="${ly}" stroke="${color}" stroke-width="3"` +
        `${dash ? ` stroke-dasharray="${dash}"` : ''}/>` +
        `<text class="legend" x="${LEGEND_X + 36}" y="${ly + 4}">${svgTitle(label)}${escapeHtml(shortLabel(row, label, 44))}</text>`
      );
    })
    .join('');

  return (
    open +
    grid +
    `<line class="axis" x1="${PLOT_LEFT}" y1="${TOP}" x2="${PLOT_LEFT}" y2="${plotBottom}"/>` +
    `<line class="axis" x1="${PLOT_LEFT}" y1="${plotBottom}" x2="${PLOT_RIGHT}" y2="${plotBottom}"/>` +
    `<text class="axis-label" x="16" y="${(TOP + plotBottom) / 2}" text-anchor="middle" ` +
    `transform="rotate(-90 16 ${(TOP + plotBottom) / 2})">milliseconds (log)</text>` +
    `<text class="axis-label" x="${(PLOT_LEFT + PLOT_RIGHT) / 2}" y="${height - 4}" text-anchor="middle">percentile</text>` +
    lines +
    legend +
    '</svg>'
  );
}
