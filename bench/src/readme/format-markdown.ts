import { spawnSync } from 'node:child_process';
import { repoPath } from '../paths.js';

/**
 * `markdown` as the repository's formatter (biome, which `pnpm lint` runs) writes it, so a
 * generated README passes lint and compares equal to its committed, formatted self.
 */
export function formatMarkdown(markdown: string, fileName = 'README.md'): string {
  const result = spawnSync(repoPath('node_modules', '.bin', 'biome'), ['format', `--stdin-file-path=${fileName}`], {
    input: markdown,
    encoding: 'utf8',
    cwd: repoPath(),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`biome could not format ${fileName}: ${result.stderr || result.error?.message}`);
  }
  return result.stdout;
}
