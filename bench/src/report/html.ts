import type { BenchResults, ScenarioResult } from '../results.js';
import { latencyChart } from './chart-latency.js';
import { throughputChart } from './chart-throughput.js';
import { comparisonTables } from './comparison/index.js';
import { environmentFacts, type Fact, packageFacts, runFacts } from './environment.js';
import { escapeHtml } from './escape-html.js';
import { REPORT_CSS } from './html-style.js';
import { resultsTable, type Table } from './table.js';

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

export function renderHtmlTable(table: Table): string {
  const head = table.columns
    .map((c) => `<th scope="col"${c.numeric ? ' class="num"' : ''}>${escapeHtml(c.header)}</th>`)
    .join('');
  const body = table.rows
    .map((row) => {
      const cells = row.map((c, i) => {
        const classes = [table.columns[i]?.numeric ? 'num' : '', c.tone ? `tone-${c.tone}` : ''].filter(Boolean);
        return `<td${classes.length ? ` class="${classes.join(' ')}"` : ''}>${escapeHtml(c.text)}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
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

function scenarioSection(scenario: ScenarioResult): string {
  const results = resultsTable(scenario);
  const flags = results.notes?.length
    ? `<div class="flags" role="note">${results.notes.map((n) => `<p>${escapeHtml(n)}</p>`).join('')}</div>`
    : '';
  return `
<section class="scenario" id="scenario-${scenario.id}" aria-labelledby="scenario-${scenario.id}-h">
<h2 id="scenario-${scenario.id}-h">§${scenario.id} — ${escapeHtml(scenario.title)}</h2>
<p class="desc">${escapeHtml(scenario.description)}</p>
<p class="kind">${KIND_TEXT[scenario.kind]}</p>
${flags}
<figure>${throughputChart(scenario)}</figure>
<figure>${latencyChart(scenario)}</figure>
<h3>Results</h3>
${renderHtmlTable({ ...results, notes: [] })}
<h3>Compared with the published measurements</h3>
${comparisonTables(scenario).map(renderHtmlTable).join('\n')}
</section>`;
}

/** report.html: one self-contained page (inline CSS and SVG, no scripts, no external resources). */
export function renderHtml(results: BenchResults): string {
  const env = results.environment;
  const packages = packageFacts(results);
  const nav = results.scenarios
    .map((s) => `<li><a href="#scenario-${s.id}">§${s.id} ${escapeHtml(s.title)}</a></li>`)
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
<p class="how">Rows marked ⚠ were limited by something other than the gateway (the subgraphs or the load generator), so their throughput does not measure the gateway. Hover a bar or a point for its exact value.</p>
<nav aria-label="Scenarios"><ol>${nav}</ol></nav>
</header>
<main>${results.scenarios.map(scenarioSection).join('\n')}
</main>
<footer>Generated from results.json of run ${escapeHtml(results.runId)} (${escapeHtml(results.startedAt)} → ${escapeHtml(results.finishedAt)}).</footer>
</body>
</html>
`;
}
