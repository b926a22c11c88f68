// How many TCP connections the gateway's subgraph client (SubgraphHttp, as built in
// gateway/dist) and a bare undici Pool with the same options open for N requests to one
// plain node:http server over loopback, by how the next request follows the previous answer.
// Run from the repository root after `pnpm build`:
//   node_modules/.bin/node docs/results/2026-11-28-subgraph-connections/pool-connections.mjs
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { SubgraphHttp } from '../../../gateway/dist/subgraph-fetch/http-attempt.js';

const require = createRequire(new URL('../../../gateway/package.json', import.meta.url));
const { Pool } = require('undici');

const N = Number(process.env.N ?? 1000);
const BODY = JSON.stringify({ query: '{ a }' });
const ANSWER = JSON.stringify({ data: { a: 1 } });

async function server(keepAliveTimeout, chunked) {
  let connections = 0;
  const http = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const headers = { 'content-type': 'application/json' };
      if (!chunked) headers['content-length'] = Buffer.byteLength(ANSWER);
      response.writeHead(200, headers);
      response.end(ANSWER);
    });
  });
  http.keepAliveTimeout = keepAliveTimeout;
  http.on('connection', () => connections++);
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}/graphql`,
    get connections() {
      return connections;
    },
    close: () => (http.closeAllConnections(), new Promise((resolve) => http.close(resolve))),
  };
}

const OPTIONS = { connections: 128, keepAliveMs: 30_000, timeoutMs: 30_000, maxResponseBytes: 5_000_000 };
const control = () => ({ signal: new AbortController().signal, attempt: 1, retryDelay: () => undefined });

/** One request with the gateway's client; resolves when its answer was read. */
function gatewayClient(url) {
  const http = new SubgraphHttp(url, OPTIONS);
  const request = { headers: { 'content-type': 'application/json' }, body: BODY, readLimit: 5e6, keepText: false };
  return {
    send: async () => {
      const attempt = await http.send(request, control());
      if (!attempt.received) throw new Error(JSON.stringify(attempt.failure));
    },
    close: () => http.close(),
  };
}

/** One request with a bare undici Pool (same options) through `pool.request()`, body read whole. */
function bareClient(url) {
  const { origin, pathname } = new URL(url);
  const pool = new Pool(origin, {
    allowH2: false,
    connections: OPTIONS.connections,
    keepAliveTimeout: OPTIONS.keepAliveMs,
    keepAliveMaxTimeout: OPTIONS.keepAliveMs,
  });
  const request = { path: pathname, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY };
  return {
    send: async () => {
      const { body } = await pool.request(request);
      await body.text();
    },
    close: () => pool.close(),
  };
}

const GAPS = {
  // The next request is dispatched in the same event-loop turn the previous answer ended in.
  'same turn': () => undefined,
  // One check phase between them: undici's `setImmediate(resume)` after each answer has run.
  'after setImmediate': () => new Promise((resolve) => setImmediate(resolve)),
  // A real client round trip between the answer and the next request is longer still.
  'after 1 ms': () => new Promise((resolve) => setTimeout(resolve, 1)),
};

async function run(makeClient, gap, loops, { keepAliveTimeout = 5_000, chunked = false } = {}) {
  const subgraph = await server(keepAliveTimeout, chunked);
  const client = makeClient(subgraph.url);
  const perLoop = Math.ceil(N / loops);
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: loops }, async () => {
      for (let i = 0; i < perLoop; i++) {
        await client.send();
        await gap();
      }
    }),
  );
  const { user, system } = process.cpuUsage(cpu);
  await client.close();
  const opened = subgraph.connections;
  await subgraph.close();
  return { opened, cpuMs: Math.round((user + system) / 1000) };
}

const row = (cells) => console.log(cells.map(([value, width]) => String(value).padEnd(width)).join(' | '));
console.log(`node ${process.version}, undici ${require('undici/package.json').version}, ${N} requests per row`);

console.log('\n1. The next request, by when it is sent (subgraph keep-alive 5 s, Node\'s default)');
row([['client', 9], ['next request', 18], ['loops', 5], ['body', 7], ['connections', 11], ['cpu ms (both sides)', 0]]);
for (const [clientName, makeClient] of [
  ['gateway', gatewayClient],
  ['bare pool', bareClient],
]) {
  for (const [gapName, gap] of Object.entries(GAPS)) {
    for (const loops of [1, 2, 4]) {
      for (const chunked of [false, true]) {
        const { opened, cpuMs } = await run(makeClient, gap, loops, { chunked });
        row([[clientName, 9], [gapName, 18], [loops, 5], [chunked ? 'chunked' : 'length', 7], [opened, 11], [cpuMs, 0]]);
      }
    }
  }
}

console.log("\n2. The subgraph's keep-alive timeout (Keep-Alive: timeout=N), gateway client, 1 loop, 1 ms apart");
row([['server keepAliveTimeout', 23], ['connections', 11], ['cpu ms (both sides)', 0]]);
for (const keepAliveTimeout of [2_000, 3_000, 5_000, 65_000]) {
  const { opened, cpuMs } = await run(gatewayClient, GAPS['after 1 ms'], 1, { keepAliveTimeout });
  row([[`${keepAliveTimeout} ms`, 23], [opened, 11], [cpuMs, 0]]);
}

console.log('\n3. Idle between requests: 3 requests 3.5 s apart, gateway client (pool keep-alive 30 s)');
row([['server keepAliveTimeout', 23], ['connections', 0]]);
for (const keepAliveTimeout of [5_000, 65_000]) {
  const subgraph = await server(keepAliveTimeout, false);
  const client = gatewayClient(subgraph.url);
  for (let i = 0; i < 3; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 3_500));
    await client.send();
  }
  await client.close();
  row([[`${keepAliveTimeout} ms`, 23], [subgraph.connections, 0]]);
  await subgraph.close();
}
