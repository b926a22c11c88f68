import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags the gateway sets on itself unless the operator names them (on the command line or in
 * NODE_OPTIONS), chosen from measured tables (docs/performance.md, "Memory"). Set here, not on each
 * command line, so `pnpm start`, the image, the manifests, cluster workers and the bench all run
 * the same defaults.
 *
 * V8 reads these at each collection, so the running process sets them (ADR 027).
 * `node --heap-growing-percent=0 server/dist/main.js` gives V8's own heuristic back.
 */
export const RUNTIME_MEMORY_DEFAULTS: readonly string[] = ['--heap-growing-percent=100'];

/**
 * V8 reads these only when it creates its heap, so the entry point re-executes itself with them
 * (same PID, ADR 045). A 32 MB semi-space instead of Node 24's 64 MB on a large machine.
 * `node --max-semi-space-size=0 server/dist/main.js` gives V8's own size back.
 */
export const STARTUP_MEMORY_DEFAULTS: readonly string[] = ['--max-semi-space-size=32'];

/**
 * Environment the C library reads only when the process starts, set by the same relaunch.
 * glibc's malloc gives contending threads arenas of their own, up to eight per core; two keep
 * §A's peak lower (ADR 049 has the figures and the CPU it may cost). An operator's value, even
 * an empty one, wins; other C libraries (musl) ignore the name.
 */
export const STARTUP_ENV_DEFAULTS: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The defaults whose flag the operator's flags do not already set (`--flag=value`, `--flag value`). */
export function memoryDefaultsToApply(defaults: readonly string[], operatorFlags: readonly string[]): string[] {
  const named = new Set(operatorFlags.map((argument) => flagName(argument)));
  return defaults.filter((flag) => !named.has(flagName(flag)));
}

/** The flags the operator gave Node: its command line, then NODE_OPTIONS (not in execArgv). */
export function operatorFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
  return [...execArgv, ...nodeOptions.split(/\s+/).filter(Boolean)];
}

/** The startup environment defaults whose variable `env` does not set (to any value). */
export function envDefaultsToApply(
  defaults: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(defaults).filter(([name]) => env[name] === undefined));
}

/**
 * Replaces this process with the same command plus the startup defaults it lacks (flags and
 * environment); returns only when there is nothing to add or the platform cannot (Windows,
 * Node's permission model): the gateway then runs with V8's and the C library's own sizes.
 */
export function relaunchWithStartupDefaults(): void {
  const missing = memoryDefaultsToApply(STARTUP_MEMORY_DEFAULTS, currentOperatorFlags());
  const missingEnv = envDefaultsToApply(STARTUP_ENV_DEFAULTS, process.env);
  if (missing.length === 0 && Object.keys(missingEnv).length === 0) return;
  if (typeof process.execve !== 'function') return;
  try {
    const argv = [process.execPath, ...process.execArgv, ...missing, ...process.argv.slice(1)];
    process.execve(process.execPath, argv, { ...process.env, ...missingEnv });
  } catch {
    // Refused before anything was replaced: carry on as started.
  }
}

/** Applies the run-time defaults to this process's V8; they take effect at its next collections. */
export function applyMemoryDefaults(): string[] {
  const applied = memoryDefaultsToApply(RUNTIME_MEMORY_DEFAULTS, currentOperatorFlags());
  for (const flag of applied) setFlagsFromString(flag);
  return applied;
}

/**
 * The memory flags this process runs with, the operator's and ours (`--name=value`), for the
 * listening log line: after a relaunch ours are on the command line, the run-time ones are not.
 */
export function memoryFlagsInEffect(): string[] {
  const names = new Set([...STARTUP_MEMORY_DEFAULTS, ...RUNTIME_MEMORY_DEFAULTS].map(flagName));
  const given = currentOperatorFlags();
  const named = given.flatMap((argument, index) => {
    if (!names.has(flagName(argument))) return [];
    const next = given[index + 1];
    return argument.includes('=') || next === undefined ? [argument] : [`${argument}=${next}`];
  });
  return [...named, ...memoryDefaultsToApply(RUNTIME_MEMORY_DEFAULTS, given)];
}

function currentOperatorFlags(): string[] {
  return operatorFlags(process.execArgv, process.env.NODE_OPTIONS);
}

/** `--heap_growing_percent=5` and `--heap-growing-percent` name the same V8 flag. */
function flagName(argument: string): string {
  return (argument.split('=')[0] ?? '').replaceAll('_', '-');
}
