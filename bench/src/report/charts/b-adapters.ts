import type { RowResult, ScenarioResult } from '../../run/results.js';
import { barPlot } from '../chart/bars.js';
import { figure, panels } from '../chart/parts.js';
import { compactScale, linearScale } from '../chart/scale.js';
import { stripLegend, stripPlot } from '../chart/strips.js';
import { escapeHtml } from '../escape-html.js';
import { formatLoad, formatRps, formatRpsValue, statusLabel, statusText } from '../format.js';
import { groupBy, latencyScale, rowLabel, rowStatus, strip } from './rows.js';

/** The query a §B variant runs: `ComplexQuery · 200 connections` → `ComplexQuery`. */
export function queryOf(row: RowResult): string {
  return row.variant.replace(/\s*·?\s*\d+\s+connections$/, '').trim();
}

/** §B as small multiples: per query, one panel per connection count, the mounts side by side in each. */
export function chartsB(scenario: ScenarioResult): string[] {
  return [throughput(scenario), latency(scenario)];
}

interface Facet {
  readonly query: string;
  readonly rows: readonly RowResult[];
  /** Rows of one connection count each, fewest connections first. */
  readonly panels: readonly (readonly [title: string, rows: RowResult[]])[];
}

function facets(scenario: ScenarioResult): Facet[] {
  return groupBy(scenario.rows, queryOf).map(([query, rows]) => ({
    query,
    rows,
    panels: groupBy(
      [...rows].sort((a, b) => (a.connections ?? 0) - (b.connections ?? 0)),
      (r) => formatLoad(r).replace('conn.', 'connections'),
    ),
  }));
}

/** In a narrow panel a status is its label; the full message is its tooltip (and in the tables). */
function shortStatus(row: RowResult) {
  return { ...rowStatus(row), text: statusLabel(row.status), tip: statusText(row) };
}

function facetHtml(query: string, body: string): string {
  return `<div class="facet">${query ? `<h4 class="facet-title">${escapeHtml(query)}</h4>` : ''}${body}</div>`;
}

function throughput(scenario: ScenarioResult): string {
  const body = facets(scenario)
    .map((facet) => {
      // One scale per query across its panels: the panels compare, the queries need not.
      const scale = compactScale(linearScale(0, Math.max(0, ...facet.rows.map((r) => r.rps ?? 0)), 4));
      const list = facet.panels.map(([title, rows]) => ({
        title,
        body: barPlot({
          groups: [
            {
              rows: rows.map((row) => {
                const label = rowLabel(scenario, row);
                if (row.rps === undefined) return { label, status: shortStatus(row) };
                const tip = `${row.target} · ${row.variant}: ${formatRps(row.rps)}`;
                return { label, value: row.rps, text: formatRpsValue(row.rps), tip };
              }),
            },
          ],
          scale,
          axisTitle: 'requests per second',
        }),
      }));
      return facetHtml(facet.query, panels(list));
    })
    .join('');
  return figure({
    id: `chart-${scenario.id}-throughput`,
    title: 'Throughput per mount as connections grow',
    direction: 'higher is better',
    caption: 'Successful requests per second. One panel per connection count; the panels of a query share their scale.',
    body,
  });
}

function latency(scenario: ScenarioResult): string {
  const body = facets(scenario)
    .map((facet) => {
      const scale = compactScale(latencyScale(facet.rows, 5));
      const list = facet.panels.map(([title, rows]) => ({
        title,
        body: stripPlot({
          groups: [
            {
              rows: rows.map((row) => {
                const line = strip(rowLabel(scenario, row), row, `${row.target} · ${row.variant}`, ['p50', 'p99']);
                return line.latency ? line : { ...line, status: shortStatus(row) };
              }),
            },
          ],
          scale,
          axisTitle: 'milliseconds (log scale)',
        }),
      }));
      return facetHtml(facet.query, panels(list));
    })
    .join('');
  return figure({
    id: `chart-${scenario.id}-latency`,
    title: 'Latency percentiles per mount as connections grow, milliseconds (log scale)',
    direction: 'lower is better',
    caption:
      'One panel per connection count; the panels of a query share their scale. Hover a mark for its value; the results table has every percentile.',
    legend: stripLegend(),
    body,
  });
}
