import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

// Every process a test starts runs in a process group of its own and is killed with that group
// (its own children too: a cluster's workers, run-all's subgraphs) when the test worker ends,
// however it ends: a passing file, a failing one (a rejected Promise.all that skipped the
// cleanup), a timeout (vitest stops the worker with a signal).

const groups = new Set<number>();
let installed = false;

function killGroups(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {} // already gone
  }
  groups.clear();
}

function installOnce(): void {
  if (installed) return;
  installed = true;
  process.once('exit', killGroups);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killGroups();
      process.exit(128 + (signal === 'SIGTERM' ? 15 : signal === 'SIGINT' ? 2 : 1));
    });
  }
}

/** `spawn`, in a new process group that is killed when this process ends, if still there. */
export function spawnInGroup(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  installOnce();
  const child = spawn(command, args, { ...options, detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    groups.add(pid);
    // The leader exiting does not end its group: its children are still killed at the end.
    child.once('exit', () => {
      try {
        process.kill(-pid, 0);
      } catch {
        groups.delete(pid);
      }
    });
  }
  return child;
}

/** Kills every group started here now (a test that checks nothing is left calls it). */
export function killAllGroups(): void {
  killGroups();
}
