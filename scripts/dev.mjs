// `pnpm dev`: the three subgraphs and the gateway (development mode: pretty logs,
// introspection, landing page), recompiling with `tsc --watch` and restarting the
// gateway when its compiled output changes. Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const env = { GATEWAY_ENV: 'development', ...process.env };

const tasks = [
  { name: 'tsc', args: [tsc, '-b', '--watch', '--preserveWatchOutput'] },
  { name: 'subgraphs', args: ['subgraphs/dist/run-all.js'] },
  { name: 'gateway', args: ['--watch', 'server/dist/main.js'] },
];

const children = tasks.map(({ name, args }) => {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
/** Children still running this long after a stop are killed, so none outlives this process. */
const FORCE_KILL_AFTER_MS = 15_000;
// SIGTERM, never SIGINT: Ctrl-C reaches the children through the process group already, and a
// second SIGINT tells the gateway to stop waiting for its in-flight requests.
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
  }, FORCE_KILL_AFTER_MS).unref();
  Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => child.once('exit', resolve)),
    ),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));
