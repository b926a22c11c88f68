/**
 * Development runner: node dist/run-all.js starts every subgraph of catalog.ts as a separate
 * processes (as in production), prefixes their output with the subgraph name, forwards
 * SIGTERM/SIGINT, and exits non-zero when a subgraph dies on its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SUBGRAPH_NAMES } from './catalog.js';

const NAMES = SUBGRAPH_NAMES;
/** After a signal, children that have not exited by then are killed. */
const FORCE_KILL_AFTER_MS = 15_000;

// PORT would give all three children the same port; they read USERS_PORT etc. instead.
const { PORT: _ignoredPort, ...childEnv } = process.env;

let stopping = false;
let failed = false;
const running = new Map<string, ChildProcess>();

for (const name of NAMES) {
  const child = spawn(process.execPath, [fileURLToPath(new URL(`./${name}/main.js`, import.meta.url))], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.set(name, child);
  prefix(child.stdout, name, process.stdout);
  prefix(child.stderr, name, process.stderr);
  child.on('exit', (code, signal) => {
    running.delete(name);
    if (!stopping && code === 0) {
      // A clean exit: it was told to stop (a signal to the whole process group, say).
      stopAll('SIGTERM');
    } else if (!stopping) {
      console.error(`[run-all] ${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping the others`);
      failed = true;
      stopAll('SIGTERM');
    } else if (code !== 0) {
      failed = true;
    }
    if (running.size === 0) process.exit(failed ? 1 : 0);
  });
}

function prefix(stream: NodeJS.ReadableStream | null, name: string, out: NodeJS.WritableStream): void {
  if (!stream) return;
  createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
}

function stopAll(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  for (const child of running.values()) child.kill(signal);
  setTimeout(() => {
    for (const child of running.values()) child.kill('SIGKILL');
  }, FORCE_KILL_AFTER_MS).unref();
}

// Passed on as SIGTERM: Ctrl-C (SIGINT) reaches the children through the process group already.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stopAll('SIGTERM'));
