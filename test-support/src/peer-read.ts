import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { eventually } from './eventually.js';

/**
 * Writes `data` on a loopback `socket` and resolves once the process at the other end has read
 * it from the kernel (Linux: its side of the connection shows an empty receive queue in
 * /proc/net/tcp). For another process that says nothing when bytes arrive (a request whose
 * body never comes): a Node server parses what it reads in the same turn.
 */
export async function writeUntilRead(socket: Socket, data: string | Buffer, timeoutMs = 10_000): Promise<void> {
  // Handed to the kernel: on loopback, in the peer's receive queue from then on.
  await new Promise<void>((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
  await eventually(async () => {
    const row = await peerRow(socket);
    if (!row) throw new Error(`no connection :${socket.remotePort} -> :${socket.localPort} in /proc/net/tcp`);
    if (row.rxQueue !== 0) throw new Error(`${row.rxQueue} bytes not yet read by the peer`);
  }, timeoutMs);
}

/**
 * Resolves once the process at the other end of a loopback `socket` has closed its side, even
 * while this side reads nothing (its FIN waits behind the bytes this side has not read): that
 * side is no longer ESTABLISHED in /proc/net/tcp (Linux).
 */
export async function untilPeerClosed(socket: Socket, timeoutMs = 10_000): Promise<void> {
  await eventually(async () => {
    const row = await peerRow(socket);
    if (row && row.state === ESTABLISHED) throw new Error('the peer still holds the connection open');
  }, timeoutMs);
}

const ESTABLISHED = '01';

/** The other end's row of a loopback connection in /proc/net/tcp(6): its state and receive queue. */
async function peerRow(socket: Socket): Promise<{ state: string; rxQueue: number } | undefined> {
  const hex = (port: number | undefined) => (port ?? 0).toString(16).toUpperCase().padStart(4, '0');
  const peer = hex(socket.remotePort);
  const ours = hex(socket.localPort);
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) => readFile(path, 'utf8').catch(() => '')),
  );
  const row = tables
    .join('\n')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find(([, local, remote]) => local?.endsWith(`:${peer}`) && remote?.endsWith(`:${ours}`));
  if (!row) return undefined;
  return { state: row[3] ?? '', rxQueue: Number.parseInt((row[4] ?? '').split(':')[1] ?? '', 16) };
}
