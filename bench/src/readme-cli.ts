// `pnpm bench:readme <results-folder>`: rewrites the README's results section (between the
// bench-results markers) from that folder's results.json. `--check` only compares and exits 1
// when they differ. The folder is written relative to the repository root in the README.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoPath } from './paths.js';
import { formatMarkdown } from './readme/format-markdown.js';
import { findSection, replaceSection } from './readme/markers.js';
import { renderResultsSection } from './readme/results-section.js';
import type { BenchResults } from './results.js';

const { values, positionals } = parseArgs({ options: { check: { type: 'boolean' } }, allowPositionals: true });
const readmePath = repoPath('README.md');
const readme = readFileSync(readmePath, 'utf8');
const given = positionals[0] ?? findSection(readme)?.folder;
if (!given) {
  console.error('usage: pnpm bench:readme <results-folder> [--check]   (e.g. docs/results/2026-11-23-full)');
  process.exit(2);
}
// pnpm runs scripts from the repository root; a path given from elsewhere is made relative to it.
const folder = relative(repoPath(), resolve(process.env.INIT_CWD ?? process.cwd(), given));
const results = JSON.parse(readFileSync(repoPath(folder, 'results.json'), 'utf8')) as BenchResults;
const updated = formatMarkdown(replaceSection(readme, folder, renderResultsSection(results, folder)));
if (values.check) {
  if (updated !== readme) {
    console.error(`README.md's results section differs from ${folder}/results.json: run pnpm bench:readme ${folder}`);
    process.exit(1);
  }
  console.log(`README.md's results section matches ${folder}/results.json`);
} else {
  writeFileSync(readmePath, updated);
  console.log(`README.md's results section regenerated from ${folder}/results.json`);
}
