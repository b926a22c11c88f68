import type { BenchResults, ScenarioResult } from '../results.js';
import { comparisonTables } from './comparison/index.js';
import { environmentFacts, packageFacts, runFacts } from './environment.js';
import { resultsTable, type Table } from './table.js';

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

export function renderMarkdownTable(table: Table): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const out = [
    `**${escapeMarkdown(table.title)}**`,
    '',
    line(table.columns.map((c) => escapeMarkdown(c.header))),
    line(table.columns.map((c) => (c.numeric ? '---:' : '---'))),
    ...table.rows.map((row) => line(row.map((c) => escapeMarkdown(c.text)))),
  ];
  for (const note of table.notes ?? []) out.push('', `_${escapeMarkdown(note)}_`);
  return out.join('\n');
}

function scenarioSection(scenario: ScenarioResult): string {
  const results = resultsTable(scenario);
  const parts = [
    `## §${scenario.id} — ${escapeMarkdown(scenario.title)}`,
    escapeMarkdown(scenario.description),
    `Load: ${KIND_TEXT[scenario.kind]}.`,
    renderMarkdownTable({ ...results, notes: [] }),
  ];
  if (results.notes?.length) parts.push(results.notes.map((n) => `> ${escapeMarkdown(n)}`).join('\n>\n'));
  parts.push(...comparisonTables(scenario).map(renderMarkdownTable));
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
      'Rows flagged ⚠ were limited by something other than the gateway, so their throughput does not measure it.',
    ...results.scenarios.map(scenarioSection),
  ];
  return `${sections.join('\n\n')}\n`;
}
