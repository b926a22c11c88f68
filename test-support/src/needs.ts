import { accessSync, appendFileSync, constants } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { findHelm } from './helm.js';

// Suites that need a program the machine may lack (redis-server, helm) skip without it, and say so
// once at the end of the run (tests/global-setup.ts prints the list and the command that
// enables them); under CI=true a missing program fails the run instead.

/** Where skipped suites are listed during a run; tests/global-setup.ts sets it and prints it. */
export const SKIP_LOG_ENV = 'FEDGW_TEST_SKIP_LOG';

/** What enables each program, printed with the list of suites it would have run. */
export const ENABLE = {
  'redis-server': 'apt-get install redis-server (or put redis-server on PATH, or set REDIS_SERVER_BIN)',
  helm: 'npx --yes pnpm@10.34.9 helm:install (builds the pinned helm with go into ~/.cache/fedgw-helm; or set HELM_BIN)',
} as const;
export type Program = keyof typeof ENABLE;

/** How a missing program is described: on PATH, or in the cache its install command fills. */
export const MISSING: Readonly<Record<Program, string>> = {
  'redis-server': 'not on PATH',
  helm: 'not installed',
};

/** The first executable `name` on PATH, or undefined. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/** The redis-server the tests (and the bench) start: REDIS_SERVER_BIN, else the first on PATH. */
export function findRedisServer(): string | undefined {
  return process.env.REDIS_SERVER_BIN ?? onPath('redis-server');
}

const FIND: Readonly<Record<Program, () => string | undefined>> = {
  'redis-server': findRedisServer,
  helm: () => findHelm(),
};

/** Where `program` is, or undefined. */
export function find(program: Program): string | undefined {
  return FIND[program]();
}

/**
 * Whether the suite in `file` (its `import.meta.url`) can run the tests that need `program`.
 * When it cannot, the suite is listed for the end-of-run summary; under CI=true it throws, so a
 * CI machine without the program fails rather than passes on fewer tests.
 */
export function available(program: Program, file: string): boolean {
  if (find(program)) return true;
  const name = relative(process.cwd(), new URL(file).pathname);
  if (process.env.CI === 'true') {
    throw new Error(`${program} is ${MISSING[program]}, and CI=true requires it (${name}): ${ENABLE[program]}`);
  }
  const log = process.env[SKIP_LOG_ENV];
  if (log) appendFileSync(log, `${program}\t${name}\n`);
  return false;
}
