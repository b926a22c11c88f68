// `pnpm bench:readme <results-folder>`: rewrites the README section generated from that folder's
// results.json: the results section (bench-results markers) for a `pnpm bench` run, the Soak
// section (bench-soak markers) for a `pnpm bench:soak` run. Without a folder, every section
// whose markers name one. `--check` only compares and exits 1 when they differ. The folder is
// written relative to the repository root in the README.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoPath } from './paths.js';
import { formatMarkdown } from './readme/format-markdown.js';
import { findSection, RESULTS_MARKERS, replaceSection } from './readme/markers.js';
import { renderResultsSection } from './readme/results-section.js';
import type { BenchResults } from './results.js';
import { renderSoakSection, SOAK_MARKERS } from './soak/readme-section.js';
import type { SoakResults } from './soak/results.js';

const { values, positionals } = parseArgs({ options: { check: { type: 'boolean' } }, allowPositionals: true });
const readmePath = repoPath('README.md');
const readme = readFileSync(readmePath, 'utf8');
// pnpm runs scripts from the repository root; a path given from elsewhere is made relative to it.
const given = positionals[0]
  ? [relative(repoPath(), resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]))]
  : [findSection(readme, RESULTS_MARKERS)?.folder, findSection(readme, SOAK_MARKERS)?.folder].filter(
      (folder): folder is string => folder !== undefined,
    );
if (given.length === 0) {
  console.error('usage: pnpm bench:readme <results-folder> [--check]   (e.g. docs/results/2026-11-23-full)');
  process.exit(2);
}

let updated = readme;
for (const folder of given) {
  const results = JSON.parse(readFileSync(repoPath(folder, 'results.json'), 'utf8')) as BenchResults | SoakResults;
  updated =
    'kind' in results && results.kind === 'soak'
      ? replaceSection(updated, folder, renderSoakSection(results, folder), SOAK_MARKERS)
      : replaceSection(updated, folder, renderResultsSection(results as BenchResults, folder), RESULTS_MARKERS);
}
updated = formatMarkdown(updated);
const named = given.map((folder) => `${folder}/results.json`).join(' and ');
if (values.check) {
  if (updated !== readme) {
    console.error(`README.md's generated sections differ from ${named}: run pnpm bench:readme <folder>`);
    process.exit(1);
  }
  console.log(`README.md's generated sections match ${named}`);
} else {
  writeFileSync(readmePath, updated);
  console.log(`README.md's generated sections regenerated from ${named}`);
}
