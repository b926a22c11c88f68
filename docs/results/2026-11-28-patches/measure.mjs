// One arm of the patch A/B (ADR 051): starts the gateway as `node server/dist/main.js` runs by
// default (PORT only; GATEWAY_ADAPTER=express with --express), with --expose-gc and the live-set
// preload of docs/results/2026-11-27-issue31-live-set. After 6 s idle the preload runs gc() and
// reports; while the process is still up this reads its VmRSS and the Node binary's resident
// pages (ICU's data table apart: ../2026-11-28-issue31-binary-pages/binary-pages.py).
// RUNS runs without the load hooks (memory as the gateway runs), then one with them (modules).
// Prints one line: heap used after gc (each run), RSS (each run), binary and ICU pages, modules,
// module source, and whether Node's bundled undici was loaded.
// Usage, from the repository root: node_modules/.bin/node docs/results/2026-11-28-patches/measure.mjs [--express] [--runs N]
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const preload = join(here, '../2026-11-27-issue31-live-set/live-set-preload.mjs');
const pagesScript = join(here, '../2026-11-28-issue31-binary-pages/binary-pages.py');
const express = process.argv.includes('--express');
const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 2;

async function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function once(hooks) {
  const port = await freePort();
  // The entry point's startup defaults given here (ADR 045, 049), so it does not re-execute
  // itself: a re-executed process loses the report's pipe.
  const env = { PATH: process.env.PATH, PORT: String(port), LIVE_SET_HOOKS: hooks ? '1' : '0', MALLOC_ARENA_MAX: '2' };
  if (express) env.GATEWAY_ADAPTER = 'express';
  const child = spawn(process.execPath, ['--expose-gc', '--max-semi-space-size=32', '--import', preload, 'server/dist/main.js'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  let report = '';
  let extra = {};
  child.stdio[3].setEncoding('utf8');
  child.stdio[3].on('data', (chunk) => {
    report += chunk;
    if (!report.includes('\n') || extra.rssKb) return;
    const pid = child.pid;
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    const pages = execFileSync('python3', [pagesScript, String(pid)], { encoding: 'utf8' }).trim();
    extra = { rssKb, pages };
    child.kill('SIGTERM');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
  await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  if (!report) throw new Error('no report from the gateway (did it start?)');
  return { ...JSON.parse(report), ...extra };
}

const mb = (bytes) => (bytes / 1048576).toFixed(2);
const heaps = [];
const rss = [];
let pages = '';
for (let i = 0; i < runs; i++) {
  const r = await once(false);
  heaps.push(mb(r.memory.heapUsed));
  rss.push((r.rssKb / 1024).toFixed(1));
  pages = r.pages.replace('binary resident MB ', 'binary ').replace(/ \.rodata \(rest\)=\S+ \.data\/\.bss=\S+ other=\S+/, '');
}
const hooked = await once(true);
const source = hooked.modules.reduce((sum, m) => sum + m.bytes, 0);
console.log(
  `heapUsed ${heaps.join(' / ')} MB  rss ${rss.join(' / ')} MB  ${pages}  modules ${hooked.modules.length}  source ${mb(source)} MB  node's undici ${hooked.builtinUndici ? 'loaded' : 'not loaded'}`,
);
