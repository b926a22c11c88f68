// Starts the gateway as `node server/dist/main.js` would run in the default configuration (PORT
// only), with --expose-gc and live-set-preload.mjs; after ~6 s idle the preload runs gc() and
// reports memory and every module loaded. Prints RSS, heapUsed after gc, module count and MB of
// module source, then the source bytes per package, largest first.
// Usage (from the repository root): node_modules/.bin/node docs/results/2026-11-27-issue31-live-set/live-set.mjs [--no-hooks] [--request] [--modules] [--why <path text>] [--dump <file>] [--snapshot <file>]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const listModules = process.argv.includes('--modules');
// --why <text>: for each loaded module whose path contains <text>, the chain of first importers.
// --no-hooks: memory only (the module list is empty), as the gateway runs without the preload's hooks.
const hooks = !process.argv.includes('--no-hooks');
// --request: at ~4 s, two POSTs to /graphql ({ __typename }, and a query that fetches from a
// subgraph, which is not running: the error path) to show what the first requests load.
// --snapshot <file>: the preload also writes a heap snapshot there after its gc.
const snapshot = process.argv.includes('--snapshot') ? process.argv[process.argv.indexOf('--snapshot') + 1] : '';
const sendRequests = process.argv.includes('--request');
const why = process.argv.includes('--why') ? process.argv[process.argv.indexOf('--why') + 1] : undefined;

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', join(here, 'live-set-preload.mjs'), 'server/dist/main.js'],
  { cwd: root, env: { PATH: process.env.PATH, PORT: String(port), LIVE_SET_HOOKS: hooks ? '1' : '0', LIVE_SET_SNAPSHOT: snapshot }, stdio: ['ignore', 'ignore', 'inherit', 'pipe'] },
);
let report = '';
child.stdio[3].setEncoding('utf8');
child.stdio[3].on('data', (chunk) => {
  report += chunk;
  if (report.includes('\n')) child.kill('SIGTERM');
});
const timer = setTimeout(() => child.kill('SIGKILL'), snapshot ? 30000 : 14000);
if (sendRequests) {
  setTimeout(async () => {
    for (const query of ['{ __typename }', '{ topProducts(first: 1) { name } }']) {
      const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      console.log(`request ${query}: ${answer.status} ${(await answer.text()).slice(0, 100)}`);
    }
  }, 4000);
}
await new Promise((resolve) => child.on('exit', resolve));
clearTimeout(timer);
if (!report) throw new Error('no report from the gateway (did it start?)');

const { memory, builtinUndici, modules } = JSON.parse(report);
// --dump <file>: the raw report (memory and every module with its size and first importer).
if (process.argv.includes('--dump')) writeFileSync(process.argv[process.argv.indexOf('--dump') + 1], report);
const mb = (bytes) => (bytes / 1048576).toFixed(2);
const total = modules.reduce((sum, m) => sum + m.bytes, 0);
console.log(`rss ${mb(memory.rss)} MB  heapUsed ${mb(memory.heapUsed)} MB  heapTotal ${mb(memory.heapTotal)} MB  modules ${modules.length}  source ${mb(total)} MB  node's undici ${builtinUndici ? 'loaded' : 'not loaded'}`);

/** node_modules/.pnpm/<store>/node_modules/@scope/name/... -> @scope/name; our own files -> their folder. */
function packageOf(path) {
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return `(ours) ${relative(root, path).split('/').slice(0, 2).join('/')}`;
  const parts = path.slice(at + 14).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}
const byPackage = new Map();
for (const m of modules) {
  const entry = byPackage.get(packageOf(m.path)) ?? { bytes: 0, count: 0 };
  entry.bytes += m.bytes;
  entry.count += 1;
  byPackage.set(packageOf(m.path), entry);
}
for (const [name, { bytes, count }] of [...byPackage].sort((a, b) => b[1].bytes - a[1].bytes)) {
  console.log(`${(bytes / 1024).toFixed(0).padStart(7)} KB ${String(count).padStart(4)}  ${name}`);
}
if (listModules) {
  for (const m of modules.sort((a, b) => b.bytes - a.bytes)) console.log(`${(m.bytes / 1024).toFixed(1).padStart(8)} KB  ${relative(root, m.path)}`);
}
if (why) {
  const byPath = new Map(modules.map((m) => [m.path, m]));
  const short = (path) => (path ? relative(root, path).replace(/^node_modules\/\.pnpm\/[^/]+\/node_modules\//, '') : '(entry)');
  for (const m of modules.filter((m) => m.path.includes(why))) {
    const chain = [];
    for (let at = m; at && chain.length < 40; at = byPath.get(at.from)) chain.push(short(at.path));
    console.log(`${chain.join('\n  <- ')}\n`);
  }
}
