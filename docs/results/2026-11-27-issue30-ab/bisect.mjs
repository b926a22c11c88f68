// Issue 30's A/B: what CORS and batching cost when they are off (the defaults), against the
// build before issue 30 (BASE_BUILD, default ../wt-base, commit 5ceb34e), on §A's two queries.
// Measured as each gateway process's own CPU time (utime + stime from /proc/<pid>/stat) per
// request, not throughput: the machine is shared. nest-fastify gateways pinned to CPU 0, the
// subgraphs and this load generator to CPU 1; every arm sends the same requests (16 at a time,
// keep-alive, no Accept-Encoding, as §A's load), arms interleaved over rounds so drift hits all.
// Arms: base; head (shipped defaults: CORS off, batching off, compression on but not asked for);
// head without compression; head with CORS on and an allowed Origin on every request.
// The base build: `git worktree add ../wt-base 5ceb34e && cd ../wt-base && npx pnpm install && npx pnpm build`.
// Run from the repository root after `pnpm build`:
//   node_modules/.bin/node docs/results/2026-11-27-issue30-ab/ab.mjs > out.json
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { COMPLEX_QUERY } from '@fedgw/subgraphs';
import { spawnNode, startSubgraphs, subgraphUrlEnv } from '@fedgw/test-support';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENCY = 16;
const BASE_BUILD = resolve(process.env.BASE_BUILD ?? '../wt-base');
const USER_QUERY =
  'query GetUserWithProducts($userId: ID!) { user(id: $userId) { id name email orders { id product { id name price } } } }';
const QUERIES = [
  { name: 'GetUserWithProducts', query: USER_QUERY, count: 3000 },
];
const ORIGIN = 'https://app.example.com';

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
const pin = (pid, cpus) => execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });

function send(url, agent, body, headers) {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolvePromise() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function measure(arm, query) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const before = cpuMs(arm.pid);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < query.count) {
        const user = `user-${(next++ % 1000) + 1}`;
        await send(arm.url, agent, JSON.stringify({ query: query.query, variables: { userId: user } }), arm.headers);
      }
    }),
  );
  const ms = cpuMs(arm.pid) - before;
  agent.destroy();
  return ms / query.count;
}

async function gateway(script, env) {
  const { process: child, match } = await spawnNode(
    script,
    { PORT: '0', HOST: '127.0.0.1', SUPERGRAPH_PATH: 'supergraph.graphql', GATEWAY_RUNTIME: 'nest', GATEWAY_ADAPTER: 'fastify', ...env },
    /"url":"(http:\/\/[^"]+)".*"msg":"gateway listening"/,
  );
  return { child, url: match[1], pid: child.child.pid };
}

pin(process.pid, '1');
const subgraphs = await startSubgraphs();
for (const subgraph of Object.values(subgraphs)) pin(subgraph.child.pid, '1');
const env = subgraphUrlEnv(subgraphs);
// Shipped log level (info): each arm writes the same request log line to a pipe this process drains.
const arms = [
  { name: 'base (5ceb34e)', ...(await gateway('/tmp/wt-base/server/dist/main.js', env)), headers: {} },
  { name: 'multipart merged (2c0bf1e)', ...(await gateway('/tmp/wt-preunread/server/dist/main.js', env)), headers: {} },
  { name: 'unread merged (4850997)', ...(await gateway('/tmp/wt-predefer/server/dist/main.js', env)), headers: {} },
  { name: 'defer merged (head)', ...(await gateway('server/dist/main.js', env)), headers: {} },
];
for (const arm of arms) pin(arm.pid, '0');
const samples = Object.fromEntries(arms.map((arm) => [arm.name, Object.fromEntries(QUERIES.map((q) => [q.name, []]))]));
for (const arm of arms) for (const query of QUERIES) await measure({ ...arm, url: arm.url }, { ...query, count: 300 }); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? arms : [...arms].reverse();
  for (const query of QUERIES) for (const arm of order) samples[arm.name][query.name].push(await measure(arm, query));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = Object.fromEntries(
  QUERIES.map((query) => {
    const base = median(samples[arms[0].name][query.name]);
    return [
      query.name,
      Object.fromEntries(
        arms.map((arm) => {
          const value = median(samples[arm.name][query.name]);
          return [arm.name, { cpuMsPerRequest: Number(value.toFixed(4)), vsBase: `${(((value - base) / base) * 100).toFixed(1)}%` }];
        }),
      ),
    ];
  }),
);
console.log(JSON.stringify({ node: process.version, rounds: ROUNDS, concurrency: CONCURRENCY, summary, samples }, null, 2));
for (const arm of arms) await arm.child.stop();
await Promise.all(Object.values(subgraphs).map((subgraph) => subgraph.stop()));
