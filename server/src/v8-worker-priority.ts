import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How Node names V8's platform threads (garbage collection helpers, concurrent compilers):
 * `V8Worker` on Node 24, `node-V8Worker` on Node 26.
 */
export const V8_WORKER_THREAD = /^(node-)?V8Worker$/;

/**
 * Gives V8's background threads the nice value `nice` (Linux only; elsewhere nothing changes)
 * and returns how many it changed (none already at or above it). Node starts four of them
 * whatever CPUs the process may use. A full collection's concurrent marking keeps them runnable
 * beside the request thread, and on a core they share the scheduler splits it evenly, so
 * requests slowed for the whole collection (ADR 043). At nice 10 the four together get about
 * 30% of a contended core: the request thread keeps the rest, and marking still keeps up under
 * saturation (at 19 it did not, and the heap doubled). On cores of their own, nice changes
 * nothing. The entry point calls it; an application that serves the gateway from code calls it
 * too.
 */
export function lowerV8WorkerPriority(nice: number, tasks = '/proc/self/task'): number {
  if (nice === 0 || process.platform !== 'linux') return 0;
  let threads: string[];
  try {
    threads = readdirSync(tasks);
  } catch {
    return 0; // no /proc (a sandbox without it): run as Node starts
  }
  let changed = 0;
  for (const tid of threads) {
    try {
      if (!V8_WORKER_THREAD.test(readFileSync(`${tasks}/${tid}/comm`, 'utf8').trim())) continue;
      // Never raises a thread's priority (a process started niced stays as niced). On Linux,
      // PRIO_PROCESS with a thread id sets that thread alone; raising one's own nice value
      // needs no privilege.
      if (getPriority(Number(tid)) >= nice) continue;
      setPriority(Number(tid), nice);
      changed++;
    } catch {
      // The thread ended between the listing and the call.
    }
  }
  return changed;
}
