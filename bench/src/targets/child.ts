import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { pinnedCommand } from '../measure/pinning.js';

/** A process the harness started and must stop, with the tail of its output kept for error messages. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** The last ~16 KB of stdout and stderr. */
  output(): string;
  /** Calls `listener` with every later chunk of stdout (the GC trace a row reads: measure/gc-trace.ts). */
  onStdout(listener: (chunk: string) => void): void;
  /** Null while running. */
  exitDescription(): string | null;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** The whole environment (not merged with ours: targets must not inherit stray settings). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** taskset CPU list; undefined: not pinned. */
  readonly cpus?: string;
}

const OUTPUT_LIMIT = 16 * 1024;
const running = new Set<ChildProcess>();

/** Starts a child process; it is killed with the harness (see killAllChildren). */
export function spawnManaged(options: SpawnOptions): ManagedProcess {
  const { command, args } = pinnedCommand(options.cpus, options.command, options.args);
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${options.name}: could not start ${options.command}`);
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = once(child, 'exit').then(() => {
    running.delete(child);
  });
  child.on('error', (error) => keep(Buffer.from(`\n${error.message}\n`)));

  const exitDescription = () =>
    child.exitCode !== null ? `exit code ${child.exitCode}` : child.signalCode !== null ? child.signalCode : null;

  return {
    name: options.name,
    pid: child.pid,
    output: () => output,
    onStdout: (listener) => child.stdout?.on('data', (chunk: Buffer) => listener(chunk.toString())),
    exitDescription,
    async stop(graceMs = 15_000) {
      if (exitDescription() !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Last resort on exit or Ctrl-C: no target may outlive the harness. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}
