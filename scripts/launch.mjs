// `node scripts/launch.mjs <script> [args]`: what `pnpm start`, `pnpm dev` and `pnpm subgraphs` run.
// It runs <script> on this Node as a child and makes sure a stop request reaches it, which the
// chain a user starts does not: `npx pnpm start` is npm → sh → sh (the `node` package's shim) →
// pnpm → sh → …, and neither dash nor the shim pass a SIGTERM on; they die and orphan what is
// below them, still serving. So:
// - SIGTERM, SIGINT or SIGHUP to this process is passed on as SIGTERM (the child drains). Never as
//   SIGINT: Ctrl-C already reaches the child through the process group, and a second SIGINT
//   means "stop waiting" to it.
// - When an ancestor in this process group (npm, its sh, the shim, pnpm: the job the user
//   started) dies, that was a stop request lost on the way: the child gets SIGTERM too. The
//   user's shell is in another group, so `nohup pnpm start &` outlives it as before.
// It exits with the child's exit code once the child has exited.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const POLL_MS = 250;

const [script, ...args] = process.argv.slice(2);
if (!script) {
  process.stderr.write('usage: node scripts/launch.mjs <script> [args]\n');
  process.exit(2);
}

const child = spawn(process.execPath, [...process.execArgv, script, ...args], { stdio: 'inherit' });

let stopRequested = false;
function stop(reason) {
  if (stopRequested) return;
  stopRequested = true;
  if (reason !== 'SIGINT') process.stderr.write(`[launch] ${reason}: stopping ${script}\n`);
  child.kill('SIGTERM');
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal));

child.on('exit', (code, signal) => {
  if (signal) process.stderr.write(`[launch] ${script} ended by ${signal}\n`);
  process.exit(code ?? 1);
});

// The ancestors in this process group, each with its start time so a recycled pid is not
// mistaken for a live one. Linux has /proc; elsewhere only the parent is watched (its pid
// changes when it dies).
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // A zombie (Z) or dead (X) process has exited; its entry stays until someone reaps it.
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return { ppid: Number(fields[1]), group: fields[2], startTime: fields[19] };
  } catch {
    return undefined;
  }
}

const group = stat('self')?.group;
const ancestors = [];
for (let pid = process.ppid; pid > 1 && ancestors.length < 64; ) {
  const found = stat(pid);
  if (!found || found.group !== group) break;
  ancestors.push({ pid, startTime: found.startTime });
  pid = found.ppid;
}
const parent = process.ppid;

setInterval(() => {
  const gone = ancestors.length
    ? ancestors.find(({ pid, startTime }) => stat(pid)?.startTime !== startTime)
    : process.ppid !== parent && { pid: parent };
  if (gone) stop(`process ${gone.pid} that started this one has exited`);
}, POLL_MS).unref();
