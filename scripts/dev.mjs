// `pnpm dev`: the three subgraphs and the gateway (development mode: pretty logs,
// introspection, landing page), recompiling with `tsc --watch` and restarting the
// gateway when its compiled output changes, and only then (dev-tasks.mjs). Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
// Built by `pnpm dev` before this runs (dev-tasks.mjs itself imports nothing built: `pnpm token` reads it unbuilt).
import { SUBGRAPHS } from '@fedgw/subgraphs/catalog';
import { devEnv, TASKS } from './dev-tasks.mjs';

let env;
try {
  env = devEnv(process.env, SUBGRAPHS);
} catch (error) {
  console.error(`[dev] ${error.message}`);
  process.exit(1);
}

const children = TASKS.map(({ name, args }) => {
  // Each in its own process group: Ctrl-C reaches this process only, and each child gets exactly
  // one SIGTERM from it (`node --watch` would pass a terminal's SIGINT on to the gateway, which
  // then sees two and stops waiting for its in-flight requests).
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} exited (${signal ?? `code ${code}`}); stopping`);
      stop(1);
    }
  });
  return child;
});

let stopping = false;
let exitCode = 0;
/** Children still running this long after a stop are killed, so none outlives this process. */
const FORCE_KILL_AFTER_MS = 15_000;
// Each child leads its own process group: SIGKILL goes to the group, so what a child started
// (the gateway under `node --watch`, the subgraphs under run-all) goes with it.
const killGroups = () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
};
function stop(code) {
  exitCode = Math.max(exitCode, code);
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => {
    exitCode = 1;
    killGroups();
  }, FORCE_KILL_AFTER_MS).unref();
  Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => child.once('exit', resolve)),
    ),
  ).then(() => process.exit(exitCode));
}
// A second Ctrl-C: stop waiting. (One Ctrl-C may arrive twice, as SIGINT from the terminal and
// SIGTERM from the launcher; only SIGINTs count.)
let sigints = 0;
process.on('SIGINT', () => {
  sigints += 1;
  if (sigints > 1) killGroups();
  stop(sigints > 1 ? 1 : 0);
});
// A closed terminal (SIGHUP) stops everything too, as the gateway itself drains on it.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));
