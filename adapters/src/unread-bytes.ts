import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { limitAnswersPerClient } from './answers-per-client.js';
import { errorBody } from './http-errors.js';

/**
 * Bounds the answer bytes the process holds for clients that do not read them, in total and per
 * client address (as SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT counts clients). A socket's
 * `writableLength` is what it queued and could not yet hand to the kernel: for a client that
 * reads, it drains; for one that does not, it stays, and 100 connections each holding an 8 MB
 * answer took the process past a 768Mi pod's memory limit. Past a cap the connections holding
 * the most are closed, largest first (their bytes are freed), and while a client holds more than
 * half its cap its new requests are refused before any work (`refusedForUnreadBytes`).
 *
 * Answers not yet built count too: 100 requests for 8 MB answers arriving at once were all built
 * at once (subgraph bodies, objects, serialized text) before any byte was queued, which alone took
 * 900 MB. So one address may have at most `maxAnswersPerClient` answers unfinished; its further
 * requests wait their turn (answers-per-client.ts).
 */
export interface UnreadBytesLimits {
  readonly maxPerClient: number;
  readonly maxTotal: number;
  readonly maxAnswersPerClient: number;
}

/**
 * 128 MB per process, a quarter of the Deployment's 512 MB V8 heap; a client may hold a quarter of
 * it. 8 answers: while built, an answer is held about four times over (subgraph bytes, objects,
 * serialized text, garbage), so 8 at MAX_RESPONSE_BYTES (10 MB) take ~320 MB, which fits a 768Mi
 * pod beside the process at rest (~200–240 MB); 16 took one process to 690 MiB with 8 MB answers.
 * A browser opens at most 6 connections to an origin.
 */
export const UNREAD_BYTES_DEFAULTS: UnreadBytesLimits = {
  maxPerClient: 32 * 1024 ** 2,
  maxTotal: 128 * 1024 ** 2,
  maxAnswersPerClient: 8,
};

/** The settings, for the whole process (config keys); `workers`: the cluster workers sharing them. */
export interface UnreadBytesSettings {
  /** Answer bytes held for clients that have not read them, all together. Default: 128 MB. */
  readonly unreadBytesMaxTotal?: number;
  /** The same for one client address. Default: a quarter of `unreadBytesMaxTotal`. */
  readonly unreadBytesMaxPerClient?: number | undefined;
  /** Answers one client address may have unfinished (being built, or not yet handed to the kernel). Default: 8. */
  readonly unreadAnswersMaxPerClient?: number;
  readonly workers?: number;
}

/**
 * One listener's share: the settings bound the process (the pod's memory), and each of N cluster
 * workers, which get the connections in turn, holds 1/N of them.
 */
export function unreadBytesLimits(settings: UnreadBytesSettings): UnreadBytesLimits {
  const workers = Math.max(1, settings.workers ?? 1);
  const maxTotal = settings.unreadBytesMaxTotal ?? UNREAD_BYTES_DEFAULTS.maxTotal;
  const maxPerClient = settings.unreadBytesMaxPerClient ?? maxTotal / 4;
  const maxAnswersPerClient = settings.unreadAnswersMaxPerClient ?? UNREAD_BYTES_DEFAULTS.maxAnswersPerClient;
  return {
    maxTotal: maxTotal / workers,
    maxPerClient: maxPerClient / workers,
    maxAnswersPerClient: Math.ceil(maxAnswersPerClient / workers),
  };
}

/** How often held bytes are counted: a few 8 MB answers can be built between two counts. */
const CHECK_INTERVAL_MS = 100;

/** Requests refused because their client holds too much unread; the adapters answer them (429) before any work. */
const refused = new WeakSet<IncomingMessage>();

/** Whether this request was refused because its client does not read its answers (429 `UNREAD_ANSWERS_LIMIT_EXCEEDED`). */
export function refusedForUnreadBytes(request: IncomingMessage): boolean {
  return refused.has(request);
}

/** The answer to a refused request: nothing was parsed or run; come back once the answers it holds are read. */
export const UNREAD_BYTES_REFUSAL = {
  status: 429,
  headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' },
  body: errorBody(
    'Too many bytes of answers to this client are still unread: read them before sending more requests.',
    'UNREAD_ANSWERS_LIMIT_EXCEEDED',
  ),
} as const;

/**
 * `clientOf` names a request's client for the answers-per-client turn (TRUSTED_PROXIES applied,
 * the gateway's `clientKey`). The byte caps stay with the socket's peer, keyed by `peerKeyOf`
 * (the same `clientKey`: an IPv6 peer by its network): the bytes sit in that connection, and
 * behind a proxy the connection (and what it has not read) is the proxy's.
 */
export function limitUnreadBytes(
  server: Server,
  limits: UnreadBytesLimits = UNREAD_BYTES_DEFAULTS,
  clientOf?: (req: IncomingMessage) => string,
  peerKeyOf: (address: string) => string = (address) => address,
  isEventStream?: (req: IncomingMessage) => boolean,
): void {
  const clients = new Map<string, Set<Socket>>();
  // A socket's key, kept with it: its peer does not change.
  const keys = new WeakMap<Socket, string>();
  server.on('connection', (socket: Socket) => {
    const address = peerKeyOf(socket.remoteAddress ?? '');
    keys.set(socket, address);
    const sockets = clients.get(address) ?? new Set<Socket>();
    clients.set(address, sockets);
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && clients.get(address) === sockets) clients.delete(address);
    });
  });
  // Before the app sees the request, so a refused one costs no parsing, planning or subgraph fetch.
  limitAnswersPerClient(
    server,
    limits.maxAnswersPerClient,
    (req) => {
      const sockets = clients.get(keys.get(req.socket) ?? peerKeyOf(req.socket.remoteAddress ?? ''));
      if (sockets && heldBy(sockets).bytes > limits.maxPerClient / 2) refused.add(req);
    },
    clientOf,
    isEventStream,
  );
  const check = setInterval(() => enforce(clients, limits), CHECK_INTERVAL_MS);
  check.unref();
  server.once('close', () => clearInterval(check));
}

interface Holding {
  bytes: number;
  /** Its sockets that hold bytes, largest first. */
  sockets: Socket[];
}

function heldBy(sockets: Iterable<Socket>): Holding {
  const holding: Holding = { bytes: 0, sockets: [] };
  for (const socket of sockets) {
    const bytes = socket.destroyed ? 0 : socket.writableLength;
    if (bytes === 0) continue;
    holding.bytes += bytes;
    holding.sockets.push(socket);
  }
  holding.sockets.sort((a, b) => b.writableLength - a.writableLength);
  return holding;
}

/** Closes the largest holders' connections until each client is within its cap and all are within the total. */
function enforce(clients: Map<string, Set<Socket>>, limits: UnreadBytesLimits): void {
  const holdings: Holding[] = [];
  let total = 0;
  for (const sockets of clients.values()) {
    const holding = heldBy(sockets);
    if (holding.bytes === 0) continue;
    while (holding.bytes > limits.maxPerClient) closeLargest(holding);
    holdings.push(holding);
    total += holding.bytes;
  }
  while (total > limits.maxTotal) {
    const largest = holdings.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    total -= closeLargest(largest);
  }
}

function closeLargest(holding: Holding): number {
  const socket = holding.sockets.shift() as Socket;
  const bytes = socket.writableLength;
  holding.bytes -= bytes;
  socket.destroy();
  return bytes;
}
