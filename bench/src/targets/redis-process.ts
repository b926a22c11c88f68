import { createConnection } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@fedgw/test-support';
import { repoPath } from '../paths.js';
import { type ManagedProcess, spawnManaged } from './child.js';

export interface RunningRedis {
  readonly url: string;
  readonly process: ManagedProcess;
}

/** A throwaway `redis-server` on a free loopback port, nothing persisted, for §E's rate limit. */
export async function startRedis(bin: string, cpus: string | undefined): Promise<RunningRedis> {
  const port = await freePort();
  const redis = spawnManaged({
    name: 'redis-server',
    command: bin,
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    env: { PATH: process.env.PATH ?? '' },
    cwd: repoPath(),
    cpus,
  });
  const deadline = Date.now() + 10_000;
  while (!(await pong(port))) {
    const exit = redis.exitDescription();
    if (exit || Date.now() > deadline) {
      await redis.stop();
      throw new Error(`redis-server did not start (${exit ?? 'no PONG within 10 s'}):\n${redis.output()}`);
    }
    await sleep(50);
  }
  return { url: `redis://127.0.0.1:${port}`, process: redis };
}

async function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.on('error', () => done(false));
  });
}
