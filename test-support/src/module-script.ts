import { spawnSync } from 'node:child_process';

// The dependency tests (ADR 044) check what a fresh Node process loads: this one, a vitest
// worker, has loaded much already. The script prints one JSON value; anything on stderr (an
// error, a warning) fails the test, since it would mean the script did not run as written.

/** Defines `files` (every URL the load hook saw, in order) and `loaded(text)`: did any hold `text`? */
const RECORD_LOADS_PRELUDE = `
import { registerHooks } from 'node:module';
const files = [];
registerHooks({ load(url, context, next) { files.push(url); return next(url, context); } });
const loaded = (text) => files.some((url) => url.includes(text));
`;

export interface ModuleScriptOptions {
  /** Run `body` after a load hook recording each file loaded: `files`, `loaded(text)`. */
  readonly recordLoads?: boolean;
  /** Variables added to this process's environment for the script. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Runs `body` as an ES module (`node --input-type=module -e`) in a fresh process from `cwd`, and
 * returns the one JSON value it printed. Throws, showing stderr, when the process wrote any.
 */
export function runModuleScript<T = unknown>(cwd: string, body: string, options: ModuleScriptOptions = {}): T {
  const script = options.recordLoads ? `${RECORD_LOADS_PRELUDE}\n${body}` : body;
  const env = { ...process.env, ...options.env };
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd, env, encoding: 'utf8' });
  if (child.error) throw child.error;
  if (child.stderr !== '') {
    throw new Error(`the module script wrote to stderr (exit ${child.status ?? child.signal}):\n${child.stderr}`);
  }
  try {
    return JSON.parse(child.stdout) as T;
  } catch {
    throw new Error(`the module script did not print one JSON value; stdout:\n${child.stdout}`);
  }
}
