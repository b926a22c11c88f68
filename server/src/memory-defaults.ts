import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags the gateway sets on itself unless the operator's command line names them, chosen from
 * a measured table (ADR 027; the figures are in docs/performance.md, "Memory"). Set here, not on
 * each command line, so `pnpm start`, the image, the manifests, cluster workers and the bench all
 * run the same defaults. `node --heap-growing-percent=0 server/dist/main.js` gives V8's own
 * heuristic back.
 */
export const MEMORY_DEFAULTS: readonly string[] = ['--heap-growing-percent=100'];

/** The defaults whose flag the command line does not already set (`--flag=value`, `--flag value`). */
export function memoryDefaultsToApply(execArgv: readonly string[]): string[] {
  const named = new Set(execArgv.map((argument) => flagName(argument)));
  return MEMORY_DEFAULTS.filter((flag) => !named.has(flagName(flag)));
}

/** Applies them to this process's V8; they take effect at its next collections. */
export function applyMemoryDefaults(execArgv: readonly string[] = process.execArgv): string[] {
  const applied = memoryDefaultsToApply(execArgv);
  for (const flag of applied) setFlagsFromString(flag);
  return applied;
}

/** `--heap_growing_percent=5` and `--heap-growing-percent` name the same V8 flag. */
function flagName(argument: string): string {
  return (argument.split('=')[0] ?? '').replaceAll('_', '-');
}
