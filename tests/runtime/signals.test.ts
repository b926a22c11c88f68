// What a user starts (`pnpm start`, `pnpm dev`, `pnpm subgraphs`, through pnpm itself or through
// `npx pnpm`) must stop as a whole when only its top process is told to (SIGTERM from a process
// manager or `kill`), or when Ctrl-C signals the terminal's process group: every process below
// drains and exits, no port stays open. Linux only (the leftovers are found through /proc).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, freePort, ROOT } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';

const PNPM_VERSION = '10.34.9';
// The pnpm on the PATH (`npx pnpm exec vitest` puts npx's copy there): run as a user with pnpm
// installed does, without npx above it.
const pnpmScript = (process.env.PATH ?? '')
  .split(delimiter)
  .map((dir) => join(dir, 'pnpm'))
  .find((path) => existsSync(path) && realpathSync(path).endsWith('.cjs'));
const onLinux = existsSync('/proc/self/environ');

interface Launched {
  child: ChildProcess;
  marker: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const launched: Launched[] = [];
afterEach(() => {
  // Whatever a failed test left behind.
  for (const { marker } of launched.splice(0)) for (const pid of processesMarked(marker)) kill(pid, 'SIGKILL');
});

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {}
}

/** The processes whose environment carries `marker`: everything the launched command started. */
function processesMarked(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`LAUNCH_TEST_MARKER=${marker}`)) {
        found.push(Number(entry));
      }
    } catch {}
  }
  return found;
}

/** Starts `command` in its own process group, as a terminal would, and waits for `ready`. */
async function launch(command: string, args: string[], env: Record<string, string>, ready: RegExp[]) {
  const marker = randomUUID();
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, GATEWAY_LOG_PRETTY: 'false', LAUNCH_TEST_MARKER: marker, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }) as Awaited<Launched['exited']>);
  const run: Launched = { child, marker, output: () => output, exited };
  launched.push(run);
  await eventually(() => {
    if (child.exitCode !== null) throw new Error(`exited early:\n${output}`);
    for (const pattern of ready) expect(output).toMatch(pattern);
  }, 120_000);
  return run;
}

async function portIsClosed(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return false;
  } catch {
    return true;
  } finally {
    socket.destroy();
  }
}

/** After the stop: the top process ends as `end` says, and nothing it started is left. */
async function expectAllStopped(run: Launched, ports: number[], end: Awaited<Launched['exited']>) {
  // deadline: a bound on the exit; the race names a hang instead of the test's timeout
  const result = await Promise.race([run.exited, sleep(60_000, 'timeout' as const)]);
  expect(result, run.output()).not.toBe('timeout');
  expect(result, run.output()).toEqual(end);
  await eventually(() => expect(processesMarked(run.marker), run.output()).toEqual([]), 30_000);
  for (const port of ports) expect(await portIsClosed(port)).toBe(true);
  expect(run.output()).not.toMatch(/did not finish within the grace period|second SIGINT/);
}

const gatewayReady = /"msg":"gateway listening"/;
const exit0 = { code: 0, signal: null };
// npm dies of the signal it was sent once its `sh -c` child has (dash passes nothing on); that
// is npm's own exit, as a shell reports it (143, 130). What matters is what happens below it.
const npmKilledBy = (signal: NodeJS.Signals) => ({ code: null, signal });
const subgraphsReady = ['users', 'products', 'reviews'].map((name) => new RegExp(`${name} subgraph ready at`));

async function subgraphPorts() {
  const [users, products, reviews] = [await freePort(), await freePort(), await freePort()];
  return {
    ports: [users, products, reviews],
    env: { USERS_PORT: String(users), PRODUCTS_PORT: String(products), REVIEWS_PORT: String(reviews) },
  };
}

describe.runIf(onLinux)(
  'stopping what `pnpm …` started',
  () => {
    const viaPnpm = (script: string): [string, string[]] => [process.execPath, [pnpmScript as string, script]];
    const viaNpx = (script: string): [string, string[]] => ['npx', [`pnpm@${PNPM_VERSION}`, script]];

    it.runIf(pnpmScript)('`pnpm start`: SIGTERM to pnpm drains the gateway, exit 0, nothing left', async () => {
      const port = await freePort();
      const run = await launch(...viaPnpm('start'), { GATEWAY_LISTEN_PORT: String(port) }, [gatewayReady]);
      process.kill(run.child.pid as number, 'SIGTERM');
      await expectAllStopped(run, [port], exit0);
      expect(run.output()).toMatch(/"msg":"shutdown complete"/);
    });

    it.runIf(pnpmScript)('`pnpm start`: Ctrl-C drains the gateway once, exit 0, nothing left', async () => {
      const port = await freePort();
      const run = await launch(...viaPnpm('start'), { GATEWAY_LISTEN_PORT: String(port) }, [gatewayReady]);
      process.kill(-(run.child.pid as number), 'SIGINT');
      await expectAllStopped(run, [port], exit0);
      expect(run.output()).toMatch(/"msg":"shutdown complete"/);
    });

    it.runIf(pnpmScript)('`pnpm start`: a second Ctrl-C stops waiting for the drain', async () => {
      const port = await freePort();
      // A long delay before the listener closes: the first Ctrl-C leaves the gateway waiting.
      const env = { GATEWAY_LISTEN_PORT: String(port), SHUTDOWN_DELAY_MS: '60000' };
      const run = await launch(...viaPnpm('start'), env, [gatewayReady]);
      process.kill(-(run.child.pid as number), 'SIGINT');
      await eventually(() => expect(run.output()).toMatch(/"msg":"shutting down"/), 20_000);
      // Still waiting: only the second Ctrl-C ends it (exit 1 below; the first alone would have exited 0).
      expect(run.child.exitCode).toBeNull();
      process.kill(-(run.child.pid as number), 'SIGINT');
      // deadline: a bound on the exit, which the second SIGINT makes immediate
      const result = await Promise.race([run.exited, sleep(20_000, 'timeout' as const)]);
      expect(result, run.output()).toEqual({ code: 1, signal: null });
      expect(run.output()).toMatch(/second SIGINT: exiting now/);
      await eventually(() => expect(processesMarked(run.marker)).toEqual([]), 30_000);
      expect(await portIsClosed(port)).toBe(true);
    });

    it.runIf(pnpmScript)(
      '`pnpm start` in cluster mode: Ctrl-C drains the primary and its workers, exit 0',
      async () => {
        const port = await freePort();
        const run = await launch(...viaPnpm('start'), { GATEWAY_LISTEN_PORT: String(port), GATEWAY_WORKERS: '2' }, [
          /"msg":"gateway listening"[\s\S]*"msg":"gateway listening"/,
        ]);
        process.kill(-(run.child.pid as number), 'SIGINT');
        await expectAllStopped(run, [port], exit0);
      },
    );

    it('`npx pnpm start`: SIGTERM to npx stops everything below it', async () => {
      const port = await freePort();
      const run = await launch(...viaNpx('start'), { GATEWAY_LISTEN_PORT: String(port) }, [gatewayReady]);
      process.kill(run.child.pid as number, 'SIGTERM');
      await expectAllStopped(run, [port], npmKilledBy('SIGTERM'));
      expect(run.output()).toMatch(/"msg":"shutdown complete"/);
    });

    it('`npx pnpm start`: Ctrl-C (SIGINT to the process group) drains the gateway once, nothing left', async () => {
      const port = await freePort();
      const run = await launch(...viaNpx('start'), { GATEWAY_LISTEN_PORT: String(port) }, [gatewayReady]);
      process.kill(-(run.child.pid as number), 'SIGINT');
      await expectAllStopped(run, [port], npmKilledBy('SIGINT'));
      expect(run.output()).toMatch(/"msg":"shutdown complete"/);
    });

    it.runIf(pnpmScript)('`pnpm subgraphs`: SIGTERM to pnpm stops the three subgraphs, exit 0', async () => {
      const { ports, env } = await subgraphPorts();
      const run = await launch(...viaPnpm('subgraphs'), env, subgraphsReady);
      process.kill(run.child.pid as number, 'SIGTERM');
      await expectAllStopped(run, ports, exit0);
    });

    it('`npx pnpm subgraphs`: SIGTERM to npx stops the three subgraphs', async () => {
      const { ports, env } = await subgraphPorts();
      const run = await launch(...viaNpx('subgraphs'), env, subgraphsReady);
      process.kill(run.child.pid as number, 'SIGTERM');
      await expectAllStopped(run, ports, npmKilledBy('SIGTERM'));
    });

    it.runIf(pnpmScript)('`pnpm dev`: SIGTERM to pnpm stops tsc, the subgraphs and the gateway, exit 0', async () => {
      const port = await freePort();
      const { ports, env } = await subgraphPorts();
      const run = await launch(...viaPnpm('dev'), { GATEWAY_LISTEN_PORT: String(port), ...env }, [
        gatewayReady,
        ...subgraphsReady,
      ]);
      process.kill(run.child.pid as number, 'SIGTERM');
      await expectAllStopped(run, [port, ...ports], exit0);
    });

    it('`npx pnpm dev`: Ctrl-C stops tsc, the subgraphs and the gateway', async () => {
      const port = await freePort();
      const { ports, env } = await subgraphPorts();
      const run = await launch(...viaNpx('dev'), { GATEWAY_LISTEN_PORT: String(port), ...env }, [
        gatewayReady,
        ...subgraphsReady,
      ]);
      process.kill(-(run.child.pid as number), 'SIGINT');
      await expectAllStopped(run, [port, ...ports], npmKilledBy('SIGINT'));
    });
  },
  300_000,
);
