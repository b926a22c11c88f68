import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { type Mount, type RunningProcess, spawnGateway } from '@fedgw/test-support';

export type LogLine = Record<string, unknown>;

/** A cluster primary (`server/dist/main.js` with GATEWAY_WORKERS=2) and what it logged. */
export interface Cluster {
  readonly process: RunningProcess;
  readonly origin: string;
  readonly url: string;
  readonly port: number;
  lines(): LogLine[];
  /** The pids of the last `cluster ready` line. */
  workerPids(): number[];
}

/** Starts `server/dist/main.js` as a cluster primary of two workers; resolves once its first worker listens. */
export async function startCluster(mount: Mount, env: Record<string, string>): Promise<Cluster> {
  const primary = await spawnGateway(mount, { GATEWAY_WORKERS: '2', ...env });
  const lines = () => primary.logLines() as LogLine[];
  return {
    process: primary,
    url: primary.url,
    origin: primary.origin,
    port: Number(new URL(primary.url).port),
    lines,
    workerPids: () => (lines().findLast((line) => line.msg === 'cluster ready')?.pids as number[]) ?? [],
  };
}

/** The `msg` of every line logged so far. */
export const messages = (cluster: Cluster) => cluster.lines().map((line) => line.msg);

export const readyLines = (cluster: Cluster) => cluster.lines().filter((line) => line.msg === 'cluster ready');

/** Whether a process with this pid exists (a zombie counts: its parent has not reaped it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One POST on a connection of its own, so the primary hands each to the next worker in turn. */
export function postOnNewConnection(url: string, payload: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(payload));
  });
}

/** Whether a TCP connection to this loopback port is refused (nothing listens on it any more). */
export async function refusesConnections(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') return true;
    throw error;
  } finally {
    socket.destroy();
  }
}
