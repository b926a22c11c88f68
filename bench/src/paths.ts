import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file is bench/src/paths.ts (or bench/dist/paths.js), two levels down. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const repoPath = (...parts: string[]): string => join(REPO_ROOT, ...parts);
