import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { writeEndlessBody } from './endless-body.js';

/**
 * How the chaos subgraph answers:
 * - `pass`: proxies the request to the real subgraph (`target`) and relays its answer;
 * - `down`: not listening at all (connection refused); only as a mode, not per request;
 * - `slow`: answers (as `pass`) only after `slowMs`, past any sensible timeout;
 * - `status-500` / `status-502` / `status-503`: that status with an HTML page;
 * - `html`: 200 with an HTML page; `invalid-json`: 200 with broken JSON; `empty-object`: 200 `{}`;
 * - `huge`: 200 with a `hugeBytes` JSON body (20 MB), written as fast as it is read;
 * - `reset`: closes the connection before answering; `reset-mid-body`: after half a body.
 */
export const CHAOS_MODES = [
  'pass',
  'down',
  'slow',
  'status-500',
  'status-502',
  'status-503',
  'html',
  'invalid-json',
  'empty-object',
  'huge',
  'reset',
  'reset-mid-body',
] as const;
export type ChaosMode = (typeof CHAOS_MODES)[number];
/** A fault for one request (`down` is a state of the port, not an answer). */
export type ChaosFault = Exclude<ChaosMode, 'pass' | 'down'>;
export type OperationType = 'query' | 'mutation' | 'subscription' | 'unknown';

/** In every broken body the chaos subgraph sends: a client must never see it. */
export const CHAOS_SECRET = 'chaos-secret-10.1.2.3';

export interface ChaosSubgraphOptions {
  /** The real subgraph's GraphQL URL, which `pass` (and `slow`) requests are proxied to. */
  target: string;
  /** Default: `pass`. */
  mode?: ChaosMode;
  /** How long `slow` waits. Default: 60 s. */
  slowMs?: number;
  /** The size of the `huge` body. Default: 20 MB. */
  hugeBytes?: number;
}

export interface ChaosRequest {
  readonly operationType: OperationType;
  /** The GraphQL document it carried ('' when none could be read). */
  readonly query: string;
  /** What the request got. */
  readonly mode: ChaosMode;
}

export interface ChaosSubgraph {
  /** Stays the same across `down` and back up. */
  readonly url: string;
  readonly mode: ChaosMode;
  /** Every request received (none while `down`), in order. */
  readonly requests: readonly ChaosRequest[];
  /** Requests received of one operation type (of the GraphQL document in the body), or all of them. */
  count(type?: OperationType): number;
  /** From now on, every request gets `mode`; `down` closes the port, leaving it reopens it. */
  setMode(mode: ChaosMode): Promise<void>;
  /** The next `count` requests get `fault`, then the mode applies again (a flaky subgraph). */
  failNext(fault: ChaosFault, count?: number): void;
  /** Filler bytes written of the last `huge` body: less than `hugeBytes` when the reader gave up. */
  hugeBytesSent(): number;
  /** Forgets the requests received so far. */
  resetCounts(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'te',
  'upgrade',
]);

/**
 * A real HTTP subgraph for fault tests: point the gateway at it with
 * `SUBGRAPH_<NAME>_URL` and it proxies to the real subgraph, or fails as told, by mode
 * or per request, and counts what it received by operation type (to prove a mutation
 * was sent once, or a query retried).
 */
export async function startChaosSubgraph(options: ChaosSubgraphOptions): Promise<ChaosSubgraph> {
  const slowMs = options.slowMs ?? 60_000;
  const hugeBytes = options.hugeBytes ?? 20 * 1024 * 1024;
  let mode: ChaosMode = 'pass';
  const faults: ChaosFault[] = [];
  const requests: ChaosRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let hugeBytesSent = () => 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString('utf8');
    const current: ChaosMode = faults.shift() ?? mode;
    requests.push({ operationType: operationTypeOf(body), query: queryOf(body), mode: current });
    switch (current) {
      case 'pass':
      case 'down': // a request that arrived as the port closed
        return proxy(options.target, request, response, body);
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void proxy(options.target, request, response, body);
        }, slowMs);
        timers.add(timer);
        response.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'status-500':
      case 'status-502':
      case 'status-503':
        return answer(response, Number(current.slice(7)), 'text/html', `<html><body>${CHAOS_SECRET}</body></html>`);
      case 'html':
        return answer(response, 200, 'text/html', `<html><body>${CHAOS_SECRET}</body></html>`);
      case 'invalid-json':
        return answer(response, 200, 'application/json', `{"data":{"secret":"${CHAOS_SECRET}"`);
      case 'empty-object':
        return answer(response, 200, 'application/json', '{}');
      case 'huge':
        hugeBytesSent = writeEndlessBody(response, `{"data":{"secret":"${CHAOS_SECRET}`, '"}}', hugeBytes);
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'reset-mid-body':
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': 4096 });
        response.write(`{"data":{"secret":"${CHAOS_SECRET}`, () => request.socket.destroy());
        return;
    }
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => request.socket.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('chaos subgraph has no TCP address');
  const port = address.port;

  const stopListening = async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    await closed;
  };

  const chaos: ChaosSubgraph = {
    url: `http://127.0.0.1:${port}/graphql`,
    get mode() {
      return mode;
    },
    requests,
    count: (type) => requests.filter((request) => type === undefined || request.operationType === type).length,
    async setMode(next) {
      if (next === 'down') await stopListening();
      else if (!server.listening) {
        server.listen(port, '127.0.0.1');
        await once(server, 'listening');
      }
      mode = next;
    },
    failNext(fault, count = 1) {
      for (let i = 0; i < count; i++) faults.push(fault);
    },
    hugeBytesSent: () => hugeBytesSent(),
    resetCounts() {
      requests.length = 0;
    },
    close: stopListening,
  };
  if (options.mode) await chaos.setMode(options.mode);
  return chaos;
}

/** The GraphQL document of a request body, or ''. */
function queryOf(body: string): string {
  try {
    const query = (JSON.parse(body) as { query?: unknown }).query;
    return typeof query === 'string' ? query : '';
  } catch {
    return '';
  }
}

/** `query`, `mutation`… from the request's GraphQL document (`{ … }` is a query). */
function operationTypeOf(body: string): OperationType {
  const query = queryOf(body);
  if (query === '') return 'unknown';
  const keyword = /^\s*(query|mutation|subscription)\b/.exec(query)?.[1];
  if (keyword) return keyword as OperationType;
  return query.trimStart().startsWith('{') ? 'query' : 'unknown';
}

function answer(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** Relays the request to the real subgraph with the gateway's headers (x-user-id, x-request-id…). */
async function proxy(target: string, request: IncomingMessage, response: ServerResponse, body: string): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const upstream = await fetch(target, { method: 'POST', headers, body });
  const text = await upstream.text();
  if (response.destroyed) return;
  answer(response, upstream.status, upstream.headers.get('content-type') ?? 'application/json', text);
}
