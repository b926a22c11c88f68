import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchResults } from '../run/results.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

export { renderMarkdownTable } from './markdown.js';
export { resourcesTable } from './resources-table.js';
export { formatSummaryTable } from './summary.js';
export { resultsTable, type Table } from './table.js';

export interface ReportFiles {
  readonly json: string;
  readonly markdown: string;
  readonly html: string;
}

/** Writes results.json, report.md and report.html into `dir` (created if missing); returns their paths. */
export async function writeReport(results: BenchResults, dir: string): Promise<ReportFiles> {
  await mkdir(dir, { recursive: true });
  const files: ReportFiles = {
    json: join(dir, 'results.json'),
    markdown: join(dir, 'report.md'),
    html: join(dir, 'report.html'),
  };
  // Render both before writing anything, so a rendering bug leaves no half-written report.
  const markdown = renderMarkdown(results);
  const html = renderHtml(results);
  await Promise.all([
    writeFile(files.json, `${JSON.stringify(results, null, 2)}\n`),
    writeFile(files.markdown, markdown),
    writeFile(files.html, html),
  ]);
  return files;
}
