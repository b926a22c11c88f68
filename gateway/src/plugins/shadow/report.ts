import { DIFFERS_MESSAGE } from './difference-log.js';

/** The failures line's message (runner.ts). */
const FAILED_MESSAGE = 'shadow request failed';

/** What `pnpm shadow:report` found in a gateway's log: per operation and target, each differing path and how often. */
export interface ShadowReport {
  /** `operation name` → `target` → `path` → times seen (`(anonymous)` for an unnamed operation). */
  readonly differences: Map<string, Map<string, Map<string, number>>>;
  /** `target` → `reason` → failures logged (suppressed ones included). */
  readonly failures: Map<string, Map<string, number>>;
}

/**
 * Reads the gateway's pino lines (anything else is skipped). A distinct difference is logged at
 * its 1st, 2nd, 4th… occurrence (and when the gateway stops) with its count so far in that process
 * (`run`): its highest count in each run, summed over runs, is how often it was seen, added to each
 * of its paths.
 */
export function readShadowLog(lines: Iterable<string>): ShadowReport {
  const seen = new Map<string, { operation: string; target: string; paths: string[]; count: number }>();
  const failures = new Map<string, Map<string, number>>();
  for (const line of lines) {
    const entry = parse(line);
    const shadow = entry?.shadow;
    if (!entry || typeof shadow !== 'object' || shadow === null) continue;
    const { target, operationName, paths, count, reason, run } = shadow as Record<string, unknown>;
    if (typeof target !== 'string') continue;
    if (entry.msg === DIFFERS_MESSAGE && Array.isArray(paths) && typeof count === 'number') {
      const operation = typeof operationName === 'string' ? operationName : '(anonymous)';
      // Counts are per process run: the highest of each run, summed over runs (replicas, restarts).
      const key = JSON.stringify([operation, target, paths, typeof run === 'string' ? run : '']);
      const before = seen.get(key);
      if (!before || before.count < count) seen.set(key, { operation, target, paths: paths.map(String), count });
    } else if (entry.msg === FAILED_MESSAGE && typeof reason === 'string') {
      const byReason = failures.get(target) ?? new Map<string, number>();
      const suppressed = typeof entry.suppressed === 'number' ? entry.suppressed : 0;
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1 + suppressed);
      failures.set(target, byReason);
    }
  }
  const differences: ShadowReport['differences'] = new Map();
  for (const { operation, target, paths, count } of seen.values()) {
    const byTarget = differences.get(operation) ?? new Map<string, Map<string, number>>();
    const byPath = byTarget.get(target) ?? new Map<string, number>();
    for (const path of paths) byPath.set(path, (byPath.get(path) ?? 0) + count);
    byTarget.set(target, byPath);
    differences.set(operation, byTarget);
  }
  return { differences, failures };
}

/** The report as text: one block per operation, a line per target and path with its count. */
export function formatShadowReport({ differences, failures }: ShadowReport): string {
  const out: string[] = [];
  if (differences.size === 0) out.push('No differences logged.');
  for (const operation of [...differences.keys()].sort()) {
    out.push(`operation ${operation}`);
    const byTarget = differences.get(operation) as Map<string, Map<string, number>>;
    for (const target of [...byTarget.keys()].sort()) {
      const byPath = byTarget.get(target) as Map<string, number>;
      for (const path of [...byPath.keys()].sort()) out.push(`  ${target}  ${path}  ${byPath.get(path)}`);
    }
  }
  for (const target of [...failures.keys()].sort()) {
    const byReason = failures.get(target) as Map<string, number>;
    for (const reason of [...byReason.keys()].sort()) out.push(`failed ${target}  ${reason}  ${byReason.get(reason)}`);
  }
  return `${out.join('\n')}\n`;
}

function parse(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
