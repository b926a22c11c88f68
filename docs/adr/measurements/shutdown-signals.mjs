// ADR 021: what our shutdown (server/dist/shutdown.js, after `pnpm build`) and close-with-grace 2.5.0
// do with the signals and faults a gateway meets. Each case runs in a child process whose "drain"
// takes CLOSE ms against a deadline of GRACE ms. Copy this file into a scratch directory, then there:
//   npm i close-with-grace@2.5.0 && REPO=<this repository> node shutdown-signals.mjs
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

if (process.argv[2] === 'child') await child(...process.argv.slice(3));
else await parent();

async function child(mode, closeMs, graceMs, fault) {
  const say = (message) => process.stdout.write(`${message}\n`);
  const drain = async () => {
    say('drain started');
    await sleep(Number(closeMs));
    say('drain finished');
  };
  if (mode === 'close-with-grace') {
    const closeWithGrace = createRequire(import.meta.url)('close-with-grace');
    closeWithGrace({ delay: Number(graceMs), logger: { error: (m) => say(String(m)) } }, drain);
  } else {
    const { installShutdown } = await import(`${process.env.REPO ?? '/work/main'}/server/dist/shutdown.js`);
    const logger = { info: (_o, m) => say(m), warn: (_o, m) => say(m), error: (_o, m) => say(m) };
    installShutdown({ gateway: { beginDrain() {} }, close: drain }, logger, { graceMs: Number(graceMs), delayMs: 0 });
  }
  setInterval(() => {}, 1000); // the listener's handle
  say('ready');
  if (fault === 'throw')
    setTimeout(() => {
      throw new Error('boom');
    }, 50);
  if (fault === 'reject') setTimeout(() => Promise.reject(new Error('boom')), 50);
}

async function parent() {
  const cases = [
    ['one SIGTERM', 1000, 5000, '', [['SIGTERM', 0]]],
    [
      'SIGTERM twice, 100 ms apart',
      1000,
      5000,
      '',
      [
        ['SIGTERM', 0],
        ['SIGTERM', 100],
      ],
    ],
    [
      'SIGINT, then SIGTERM 50 ms later',
      1000,
      5000,
      '',
      [
        ['SIGINT', 0],
        ['SIGTERM', 50],
      ],
    ],
    [
      'SIGINT twice, 300 ms apart',
      1000,
      5000,
      '',
      [
        ['SIGINT', 0],
        ['SIGINT', 300],
      ],
    ],
    ['drain of 3 s, deadline 2 s', 3000, 2000, '', [['SIGTERM', 0]]],
    ['SIGHUP', 1000, 5000, '', [['SIGHUP', 0]]],
    ['an uncaught exception', 1000, 5000, 'throw', []],
    ['an unhandled rejection', 1000, 5000, 'reject', []],
  ];
  for (const [name, closeMs, graceMs, fault, signals] of cases) {
    for (const mode of ['ours', 'close-with-grace']) {
      const args = [fileURLToPath(import.meta.url), 'child', mode, String(closeMs), String(graceMs), fault];
      const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      proc.stdout.on('data', (chunk) => {
        out += chunk;
      });
      while (!out.includes('ready')) await sleep(10);
      const start = Date.now();
      let last = 0;
      for (const [signal, at] of signals) {
        await sleep(at - last);
        last = at;
        proc.kill(signal);
      }
      const [code, signal] = await once(proc, 'exit');
      const drain = out.includes('drain finished') ? 'finished' : out.includes('drain started') ? 'cut short' : 'none';
      console.log(`${name} | ${mode} | exit ${code ?? signal} after ${Date.now() - start} ms | drain ${drain}`);
    }
  }
}
