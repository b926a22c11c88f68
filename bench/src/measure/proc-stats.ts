import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** Clock ticks per second for /proc times (`getconf CLK_TCK`; 100 on Linux when getconf is missing). */
export function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * CPU seconds a process has used so far (user + system, all its threads), from
 * /proc/<pid>/stat; null once the process is gone (or off Linux).
 */
export function readCpuSeconds(pid: number): number | null {
  const fields = statFields(pid);
  if (!fields) return null;
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return (utime + stime) / clockTicks();
}

/**
 * Resets a process's peak resident set (VmHWM) to its current RSS by writing 5 to
 * /proc/<pid>/clear_refs (Linux 4.0+; our own children only), so the next readPeakRssMb is
 * the peak since now. False when refused: VmHWM then stays the lifetime peak.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Peak resident set size in MB (VmHWM in /proc/<pid>/status); null when unavailable. */
export function readPeakRssMb(pid: number): number | null {
  return readStatusKb(pid, 'VmHWM');
}

/** Current resident set size in MB (VmRSS in /proc/<pid>/status); null when unavailable. */
export function readRssMb(pid: number): number | null {
  return readStatusKb(pid, 'VmRSS');
}

function readStatusKb(pid: number, field: string): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Every process below `pid` (children, their children…), from each /proc/<pid>/stat's parent id. */
export function descendantPids(pid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    // fields[1] is field 4, the parent's pid; a process gone meanwhile has no fields.
    const parent = Number(statFields(Number(entry))?.[1]);
    if (Number.isInteger(parent)) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of childrenOf.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The fields of /proc/<pid>/stat from field 3 (state) on; null once the process is gone (or off Linux). */
function statFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
