import { spawnSync } from 'node:child_process';

/** Which CPUs (taskset lists, e.g. `0` or `1-3`) each process group may run on. */
export interface CpuLayout {
  readonly gateway: string;
  readonly subgraphs: string;
  readonly load: string;
}

/** True when util-linux's `taskset` can be run. */
export function hasTaskset(): boolean {
  const result = spawnSync('taskset', ['--version'], { stdio: 'ignore' });
  return result.error === undefined && result.status === 0;
}

/**
 * The default layout: the gateway (or Router) alone on CPU 0, everything else (subgraphs,
 * load generator, Redis) on the rest. On 2 cores each gateway gets exactly one core, the same
 * budget for Node and Rust. Null on a single core: nothing to separate.
 */
export function defaultLayout(cores: number): CpuLayout | null {
  if (cores < 2) return null;
  const rest = cores === 2 ? '1' : `1-${cores - 1}`;
  return { gateway: '0', subgraphs: rest, load: rest };
}

/** The CPU numbers in a taskset list (`0-2,5` → [0, 1, 2, 5]); throws on malformed lists. */
export function parseCpuList(list: string): number[] {
  const cpus = new Set<number>();
  for (const part of list.split(',')) {
    const match = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!match) throw new Error(`invalid CPU list "${list}" (expected e.g. 0, 1-3 or 0,2)`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) throw new Error(`invalid CPU range "${part.trim()}"`);
    for (let cpu = from; cpu <= to; cpu++) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** Checks every list of the layout against the machine's cores; returns the problems. */
export function layoutProblems(layout: CpuLayout, cores: number): string[] {
  const problems: string[] = [];
  for (const [group, list] of Object.entries(layout)) {
    try {
      const missing = parseCpuList(list).filter((cpu) => cpu >= cores);
      if (missing.length > 0) problems.push(`${group} CPUs ${missing.join(',')} do not exist (${cores} cores)`);
    } catch (error) {
      problems.push(`${group}: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** `command args` prefixed with `taskset -c <cpus>` when pinning (taskset execs: the pid stays the same). */
export function pinnedCommand(
  cpus: string | undefined,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return cpus === undefined
    ? { command, args: [...args] }
    : { command: 'taskset', args: ['-c', cpus, command, ...args] };
}

/** Pins a running process and all its threads (used for the harness itself: it is the load generator). */
export function pinProcess(pid: number, cpus: string): void {
  const result = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`taskset -a -p -c ${cpus} ${pid} failed: ${result.stderr || result.error}`);
}
