import type { BenchResults, ScenarioResult } from '../run/results.js';
import { scenarioCharts } from './charts/index.js';
import { comparisonTables } from './comparison/index.js';
import { environmentFacts, type Fact, packageFacts, runFacts } from './environment.js';
import { escapeHtml } from './escape-html.js';
import { scenarioHeading, scenarioTitle } from './format.js';
import { REPORT_CSS } from './html-style.js';
import { resourcesTable } from './resources-table.js';
import { noteId, noteMark, rowNotes } from './row-notes.js';
import { type Cell, resultsTable, type Table } from './table.js';

/** Nothing may load or run: the report is one inert file (styles inline, no scripts). */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const KIND_TEXT: Readonly<Record<ScenarioResult['kind'], string>> = {
  'closed-loop': 'Closed loop: as many requests as the connections allow (maximum throughput).',
  'fixed-rate': 'Open loop at a fixed arrival rate; latencies keep microseconds.',
};

export function reportTitle(results: BenchResults): string {
  return `Federation gateway benchmark — ${results.runId}`;
}

function factList(facts: readonly Fact[], className = 'facts'): string {
  const items = facts.map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}</dd>`).join('');
  return `<dl class="${className}">${items}</dl>`;
}

/** Words longer than this may break anywhere; shorter ones never break inside (`GetUserWithProducts`). */
const LONG_WORD = 30;

function cellHtml(c: Cell, numeric: boolean, scenarioId: string): string {
  const long = !numeric && c.text.split(/\s+/).some((word) => word.length > LONG_WORD);
  const classes = [numeric ? 'num' : '', long ? 'long' : '', c.tone ? `tone-${c.tone}` : ''].filter(Boolean);
  const mark = c.notes?.length
    ? ` <a class="mark" href="#${noteId(scenarioId, c.notes[0] ?? 0)}">${noteMark(c.notes)}</a>`
    : '';
  // A status message wraps at a readable width instead of widening its column.
  const text =
    !numeric && (c.tone === 'bad' || c.tone === 'muted')
      ? `<span class="msg">${escapeHtml(c.text)}</span>`
      : escapeHtml(c.text);
  return `<td${classes.length ? ` class="${classes.join(' ')}"` : ''}>${text}${mark}</td>`;
}

/** A table; cells with warning notes link to them (`#note-<scenario>-<n>`) and flag their row. */
export function renderHtmlTable(table: Table, scenarioId = ''): string {
  const head = table.columns
    .map((c) => `<th scope="col"${c.numeric ? ' class="num"' : ''}>${escapeHtml(c.header)}</th>`)
    .join('');
  const body = table.rows
    .map((row) => {
      const flagged = row.some((c) => c.notes?.length);
      const cells = row.map((c, i) => cellHtml(c, table.columns[i]?.numeric === true, scenarioId));
      return `<tr${flagged ? ' class="flagged"' : ''}>${cells.join('')}</tr>`;
    })
    .join('\n');
  const notes = table.notes?.length
    ? `<div class="table-notes">${table.notes.map((n) => `<p>${escapeHtml(n)}</p>`).join('')}</div>`
    : '';
  return (
    `<div class="table-wrap"><table><caption>${escapeHtml(table.title)}</caption>` +
    `<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>${notes}`
  );
}

/** The warned rows' notes, each the target of its `⚠n` marks. */
function warningList(scenario: ScenarioResult): string {
  const notes = rowNotes(scenario);
  if (notes.length === 0) return '';
  const items = notes
    .map(
      (n) =>
        `<li id="${noteId(scenario.id, n.number)}"><span class="mark">${noteMark([n.number])}</span> ` +
        `<strong>${escapeHtml(n.label)}</strong>: ${escapeHtml(n.warnings.join('; '))}</li>`,
    )
    .join('');
  return `<div class="warnings" role="note"><p>Rows marked ⚠ may not measure the target alone; do not read them as clean gateway numbers:</p><ol>${items}</ol></div>`;
}

function scenarioSection(scenario: ScenarioResult): string {
  const notes = rowNotes(scenario);
  const flag = notes.length
    ? `<p class="flags" role="note">⚠ ${notes.length} of ${scenario.rows.length} rows carry a warning: see the notes under the results table.</p>`
    : '';
  return `
<section class="scenario" id="scenario-${scenario.id}" aria-labelledby="scenario-${scenario.id}-h">
<h2 id="scenario-${scenario.id}-h">${escapeHtml(scenarioHeading(scenario))}</h2>
<p class="desc">${escapeHtml(scenario.description)}</p>
<p class="kind">${KIND_TEXT[scenario.kind]}</p>
${flag}
${scenarioCharts(scenario).join('\n')}
<h3>Results</h3>
${renderHtmlTable(resultsTable(scenario), scenario.id)}
${warningList(scenario)}
${renderHtmlTable(resourcesTable(scenario), scenario.id)}
<h3>Compared with the published measurements</h3>
${comparisonTables(scenario)
  .map((t) => renderHtmlTable(t, scenario.id))
  .join('\n')}
</section>`;
}

/** report.html: one self-contained page (inline CSS, HTML charts, no scripts, no external resources). */
export function renderHtml(results: BenchResults): string {
  const env = results.environment;
  const packages = packageFacts(results);
  const nav = results.scenarios
    .map((s) => `<li><a href="#scenario-${s.id}">§${s.id} ${escapeHtml(scenarioTitle(s))}</a></li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(reportTitle(results))}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>Federation gateway benchmark</h1>
<p class="subtitle">Our measurements beside the published ones they reproduce. Absolute numbers depend on the machine: compare ratios and shapes.</p>
<div class="env">
<section aria-label="Run">${factList(runFacts(results))}</section>
<section aria-label="Machine">${factList(environmentFacts(results))}</section>
</div>
<h3>Packages</h3>
${packages.length ? factList(packages, 'facts packages') : '<p>none recorded</p>'}
${env.notes.length ? `<h3>Notes</h3><ul class="notes">${env.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : ''}
<p class="how">Each target keeps one colour through the whole report. Rows marked ⚠ (hatched bars, tinted rows) may not measure the target alone: the load generator or a shared core saturated, sends left late, or requests failed; the notes under each results table say which. Hover a bar or a mark for its exact value.</p>
<nav aria-label="Scenarios"><ol>${nav}</ol></nav>
</header>
<main>${results.scenarios.map(scenarioSection).join('\n')}
</main>
<footer>Generated from results.json of run ${escapeHtml(results.runId)} (${escapeHtml(results.startedAt)} → ${escapeHtml(results.finishedAt)}).</footer>
</body>
</html>
`;
}
