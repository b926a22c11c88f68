import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRedisServer } from './needs.js';
import { freePort } from './ports.js';
import { spawnInGroup } from './process-group.js';

/** A real `redis-server` on 127.0.0.1, which a test can stop, restart and freeze. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Sends one command (inline protocol) and resolves with the raw reply, e.g. `+PONG\r\n`. */
  command(line: string): Promise<string>;
  /** Stops the server (SIGTERM by default, SIGKILL for a crash) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts the server again on the same port (stopping it first if it runs). Without `persist`
   * its data is gone; with it, what it held comes back from its append-only file.
   */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open but nothing is answered (a hung Redis). */
  pause(): void;
  /** SIGCONT after `pause()`. */
  resume(): void;
}

export interface TestRedisOptions {
  /**
   * Keep every write in an append-only file (`appendfsync always`, in a temporary directory
   * removed when the test process exits), so a restart brings back what the server held: keys
   * with their absolute expiry times, as a production Redis with persistence does. Default: false.
   */
  readonly persist?: boolean;
}

/**
 * Starts `redis-server` on a free port (`--save ''`, and `--appendonly no` unless `persist`)
 * and waits until it answers PING.
 */
export async function startRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const port = await freePort();
  const persistence = options.persist ? appendOnlyIn(mkdtempSync(join(tmpdir(), 'fedgw-redis-'))) : NO_PERSISTENCE;
  let child = await spawnRedis(port, persistence);

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    command: (line) => sendCommand(port, line),
    async stop(signal = 'SIGTERM') {
      await stopChild(child, signal);
    },
    async restart() {
      await stopChild(child, 'SIGTERM');
      child = await spawnRedis(port, persistence);
    },
    pause() {
      child.kill('SIGSTOP');
    },
    resume() {
      child.kill('SIGCONT');
    },
  };
}

const NO_PERSISTENCE: readonly string[] = ['--appendonly', 'no'];

/** The append-only file's settings in `dir`, which is removed when this process exits. */
function appendOnlyIn(dir: string): readonly string[] {
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir];
}

async function spawnRedis(port: number, persistence: readonly string[]): Promise<ChildProcess> {
  const bin = findRedisServer();
  if (!bin) throw new Error('redis-server is not on PATH (skip with available("redis-server", import.meta.url))');
  const child = spawnInGroup(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--loglevel', 'warning'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}) before answering PING:\n${output}`);
    }
    const reply = await sendCommand(port, 'PING').catch(() => '');
    if (reply.startsWith('+PONG')) return child;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer PING within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25)); // poll: PING, until redis-server answers it
  }
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGCONT'); // a paused server cannot handle SIGTERM
  child.kill(signal);
  await exited;
}

function sendCommand(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no reply to "${line}" within 2 s`));
    }, 2_000);
    socket.on('connect', () => socket.write(`${line}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.endsWith('\r\n')) {
        clearTimeout(timer);
        socket.end();
        resolve(reply);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
