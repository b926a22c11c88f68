// `pnpm bench:readme <results-folder>`: rewrites the sections generated from that folder's
// results.json: for a `pnpm bench` run the README's verdict table and the results in
// docs/benchmark.md; for a `pnpm bench:soak` run the Soak section there. Without a folder,
// every section from the folder its markers name. `--check` only compares and exits 1 when
// they differ. Folders are written relative to the repository root.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoPath } from './paths.js';
import { GENERATED_DOCUMENTS, namedFolders, regenerate } from './readme/documents.js';
import { formatMarkdown } from './readme/format-markdown.js';

const USAGE = 'usage: pnpm bench:readme <results-folder> [--check]   (e.g. docs/results/2026-11-23-full)';
let parsed: ReturnType<typeof parseOptions>;
try {
  parsed = parseOptions();
} catch (error) {
  // An unknown option (--help included) gets the usage line, not a stack trace.
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
// pnpm runs scripts from the repository root; a path given from elsewhere is made relative to it.
const given = positionals[0]
  ? [relative(repoPath(), resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]))]
  : undefined;
const load = (folder: string) => JSON.parse(readFileSync(repoPath(folder, 'results.json'), 'utf8'));

let differs = false;
const used = new Set<string>();
for (const { path, linkPrefix } of GENERATED_DOCUMENTS) {
  const text = readFileSync(repoPath(path), 'utf8');
  for (const folder of given ?? namedFolders(text)) used.add(folder);
  const updated = formatMarkdown(regenerate(text, linkPrefix, load, given), path);
  if (updated === text) continue;
  differs = true;
  if (values.check) console.error(`${path}'s generated sections differ: run pnpm bench:readme <folder>`);
  else writeFileSync(repoPath(path), updated);
}
if (used.size === 0) {
  console.error(USAGE);
  process.exit(2);
}
const named = [...used].map((folder) => `${folder}/results.json`).join(' and ');
if (values.check && differs) process.exit(1);
console.log(`generated sections ${values.check ? 'match' : 'regenerated from'} ${named}`);

function parseOptions() {
  return parseArgs({ options: { check: { type: 'boolean' } }, allowPositionals: true });
}
