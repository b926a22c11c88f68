import type { BenchResults, ScenarioResult } from '../run/results.js';
import { comparisonTables } from './comparison/index.js';
import { environmentFacts, packageFacts, runFacts } from './environment.js';
import { scenarioHeading } from './format.js';
import { resourcesTable } from './resources-table.js';
import { noteMark, rowNotes } from './row-notes.js';
import { type Cell, resultsTable, type Table } from './table.js';

/**
 * Text from results made inert for Markdown: HTML is shown, not rendered, and table pipes,
 * emphasis and link brackets are literal.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

const KIND_TEXT: Readonly<Record<ScenarioResult['kind'], string>> = {
  'closed-loop': 'closed loop: as many requests as the connections allow (maximum throughput)',
  'fixed-rate': 'open loop at a fixed arrival rate (latency in microseconds)',
};

/** A cell's text, then the `⚠1` marks of the warnings its row depends on. */
const cellText = (c: Cell) => `${escapeMarkdown(c.text)}${c.notes?.length ? ` ${noteMark(c.notes)}` : ''}`;

export function renderMarkdownTable(table: Table): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const out = [
    `**${escapeMarkdown(table.title)}**`,
    '',
    line(table.columns.map((c) => escapeMarkdown(c.header))),
    line(table.columns.map((c) => (c.numeric ? '---:' : '---'))),
    ...table.rows.map((row) => line(row.map(cellText))),
  ];
  for (const note of table.notes ?? []) out.push('', `_${escapeMarkdown(note)}_`);
  return out.join('\n');
}

/** The warned rows' notes: what each `⚠n` mark in the scenario's tables means. */
function warningList(scenario: ScenarioResult): string[] {
  const notes = rowNotes(scenario);
  if (notes.length === 0) return [];
  return [
    '**Warnings**: rows marked ⚠ may not measure the target alone; do not read them as clean gateway numbers.',
    notes
      .map((n) => `- ${noteMark([n.number])} ${escapeMarkdown(n.label)}: ${escapeMarkdown(n.warnings.join('; '))}`)
      .join('\n'),
  ];
}

function scenarioSection(scenario: ScenarioResult): string {
  const parts = [
    `## ${escapeMarkdown(scenarioHeading(scenario))}`,
    escapeMarkdown(scenario.description),
    `Load: ${KIND_TEXT[scenario.kind]}.`,
    renderMarkdownTable(resultsTable(scenario)),
    ...warningList(scenario),
    renderMarkdownTable(resourcesTable(scenario)),
    ...comparisonTables(scenario).map(renderMarkdownTable),
  ];
  return parts.join('\n\n');
}

/** report.md: the run, the machine, then per scenario our table and the seed's beside it. */
export function renderMarkdown(results: BenchResults): string {
  const facts = (list: { label: string; value: string }[]) =>
    list.map((f) => `- **${escapeMarkdown(f.label)}**: ${escapeMarkdown(f.value)}`).join('\n');
  const packages = packageFacts(results)
    .map((p) => `${escapeMarkdown(p.label)} ${escapeMarkdown(p.value)}`)
    .join(' · ');
  const notes = results.environment.notes.map((n) => `- ${escapeMarkdown(n)}`).join('\n');
  const sections = [
    `# Federation gateway benchmark — ${escapeMarkdown(results.runId)}`,
    facts(runFacts(results)),
    '## Environment',
    facts(environmentFacts(results)),
    `**Packages**: ${packages || 'none recorded'}`,
    ...(notes ? ['**Notes**', notes] : []),
    '**How to read**: absolute numbers depend on the machine; compare the ratios and the shape of each table with the seed reference. ' +
      'Rows marked ⚠n may not measure the target alone (the load generator or a shared core saturated, sends left late, or requests failed): note n under the results table says why.',
    ...results.scenarios.map(scenarioSection),
  ];
  return `${sections.join('\n\n')}\n`;
}
