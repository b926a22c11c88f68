import type { ScenarioResult } from '../results.js';
import { escapeHtml } from './escape-html.js';
import { bottleneckWarning, formatRps, statusText } from './format.js';
import { seriesStyles, shortLabel } from './series.js';
import { linearTicks, r1, svgTitle, tickLabel, truncate } from './svg.js';

const WIDTH = 960;
const LABEL_X = 8;
const BAR_X = 300;
const BAR_MAX_X = 800;
const TOP = 40;
const ROW_H = 26;
const BAR_H = 16;
const AXIS_H = 34;

/**
 * Horizontal bars, one per row of the scenario, in the row's series colour. Rows without
 * numbers show their status message instead of a bar; fixed-rate rows mark the target rate.
 */
export function throughputChart(scenario: ScenarioResult): string {
  const rows = scenario.rows;
  const styles = seriesStyles(scenario);
  const max = Math.max(1, ...rows.map((r) => Math.max(r.rps ?? 0, r.rate ?? 0)));
  const ticks = linearTicks(max);
  const top = ticks.at(-1) ?? max;
  const x = (v: number) => BAR_X + ((BAR_MAX_X - BAR_X) * v) / top;
  const plotBottom = TOP + rows.length * ROW_H;
  const height = plotBottom + AXIS_H;
  const id = `tp-${scenario.id}`;

  const grid = ticks
    .map((t) => {
      const gx = r1(x(t));
      return (
        `<line class="grid" x1="${gx}" y1="${TOP - 6}" x2="${gx}" y2="${plotBottom}"/>` +
        `<text class="tick" x="${gx}" y="${plotBottom + 16}" text-anchor="middle">${tickLabel(t)}</text>`
      );
    })
    .join('');

  const bars = rows
    .map((row, i) => {
      const y = TOP + i * ROW_H;
      const style = styles[i];
      const label = style?.label ?? row.target;
      const labelSvg =
        `<text class="label" x="${LABEL_X}" y="${y + BAR_H - 3}">${svgTitle(label)}` +
        `${escapeHtml(shortLabel(row, label, 44))}</text>`;
      if (row.rps === undefined) {
        const text = statusText(row);
        return (
          labelSvg +
          `<text class="no-data status-${row.status}" x="${BAR_X + 4}" y="${y + BAR_H - 3}">` +
          `${svgTitle(text)}${escapeHtml(truncate(text, 80))}</text>`
        );
      }
      const warning = bottleneckWarning(row);
      const w = Math.max(1, x(row.rps) - BAR_X);
      const tip = `${label}: ${formatRps(row.rps)}${warning ? ` (${warning})` : ''}`;
      const rateMark =
        row.rate === undefined
          ? ''
          : `<line class="rate-mark" x1="${r1(x(row.rate))}" y1="${y - 2}" x2="${r1(x(row.rate))}" y2="${y + BAR_H + 2}">` +
            `${svgTitle(`target rate ${row.rate} req/s`)}</line>`;
      return (
        labelSvg +
        `<rect class="bar${warning ? ' limited' : ''}" x="${BAR_X}" y="${y}" width="${r1(w)}" height="${BAR_H}" ` +
        `fill="${style?.color}">${svgTitle(tip)}</rect>` +
        (warning
          ? `<rect class="hatch" x="${BAR_X}" y="${y}" width="${r1(w)}" height="${BAR_H}" fill="url(#${id}-hatch)"/>`
          : '') +
        rateMark +
        `<text class="value" x="${r1(BAR_X + w + 6)}" y="${y + BAR_H - 3}">${escapeHtml(formatRps(row.rps))}` +
        `${warning ? ' ⚠' : ''}</text>`
      );
    })
    .join('');

  const fixedRate = rows.some((r) => r.rate !== undefined);
  return (
    `<svg class="chart chart-throughput" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" ` +
    `role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${id}-title">§${scenario.id} throughput, requests per second (higher is better)</title>` +
    `<defs><pattern id="${id}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<line x1="0" y1="0" x2="0" y2="6" stroke="#fff" stroke-width="2.5" stroke-opacity="0.7"/></pattern></defs>` +
    `<text class="chart-title" x="${LABEL_X}" y="18">Throughput, req/s (higher is better)</text>` +
    (fixedRate
      ? `<text class="chart-note" x="${BAR_MAX_X}" y="18" text-anchor="end">black tick = target arrival rate</text>`
      : '') +
    grid +
    bars +
    `<line class="axis" x1="${BAR_X}" y1="${plotBottom}" x2="${BAR_MAX_X}" y2="${plotBottom}"/>` +
    `<text class="axis-label" x="${(BAR_X + BAR_MAX_X) / 2}" y="${height - 2}" text-anchor="middle">requests per second</text>` +
    '</svg>'
  );
}
