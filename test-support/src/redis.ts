import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { findRedisServer } from './needs.js';
import { freePort } from './ports.js';
import { spawnInGroup } from './process-group.js';

/** A real `redis-server` on 127.0.0.1 (no persistence), which a test can stop, restart and freeze. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Sends one command (inline protocol) and resolves with the raw reply, e.g. `+PONG\r\n`. */
  command(line: string): Promise<string>;
  /** Stops the server (SIGTERM by default, SIGKILL for a crash) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts a fresh server on the same port (its data is gone: nothing is persisted). */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open but nothing is answered (a hung Redis). */
  pause(): void;
  /** SIGCONT after `pause()`. */
  resume(): void;
}

/** Starts `redis-server --save '' --appendonly no` on a free port and waits until it answers PING. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child = await spawnRedis(port);

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    command: (line) => sendCommand(port, line),
    async stop(signal = 'SIGTERM') {
      await stopChild(child, signal);
    },
    async restart() {
      await stopChild(child, 'SIGTERM');
      child = await spawnRedis(port);
    },
    pause() {
      child.kill('SIGSTOP');
    },
    resume() {
      child.kill('SIGCONT');
    },
  };
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const bin = findRedisServer();
  if (!bin) throw new Error('redis-server is not on PATH (skip with available("redis-server", import.meta.url))');
  const child = spawnInGroup(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
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
