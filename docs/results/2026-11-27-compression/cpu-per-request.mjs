// What compressing answers costs the gateway in CPU, measured as the gateway process's own CPU
// time (utime + stime from /proc/<pid>/stat) per request, not throughput: the machine is shared.
// One nest-fastify gateway as it ships (COMPRESSION on, COMPRESSION_MIN_BYTES 1024) in front of
// the three subgraphs; per round, each arm sends the same requests (8 at a time, keep-alive)
// with a different Accept-Encoding, arms interleaved over rounds so drift hits all alike. The
// client reads the bytes and does not decode them (its cost is not the gateway's).
// Run from the repository root after `pnpm build`:
//   node_modules/.bin/node docs/results/2026-11-27-compression/cpu-per-request.mjs > out.json
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { COMPLEX_QUERY, DASHBOARD_QUERY } from '@fedgw/subgraphs';
import { startGateway, startSubgraphs, subgraphUrlEnv } from '@fedgw/test-support';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENCY = 8;
const ARMS = { identity: undefined, br: 'br', gzip: 'gzip' };
const QUERIES = [
  { name: 'Dashboard (96 KB)', body: JSON.stringify({ query: DASHBOARD_QUERY }), count: 200 },
  { name: 'ComplexQuery (2.5 KB)', body: JSON.stringify({ query: COMPLEX_QUERY, variables: { userId: 'user-7' } }), count: 1000 },
];

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s
};

async function send(url, agent, body, acceptEncoding) {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...(acceptEncoding && { 'accept-encoding': acceptEncoding }) };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function arm(url, pid, query, acceptEncoding) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  let bytes = 0;
  const before = cpuMs(pid);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < query.count) {
        const answerBytes = await send(url, agent, query.body, acceptEncoding);
        bytes += answerBytes;
      }
    }),
  );
  const after = cpuMs(pid);
  agent.destroy();
  return { cpuMsPerRequest: (after - before) / query.count, wireBytesPerAnswer: bytes / query.count };
}

const subgraphs = await startSubgraphs();
const gateway = await startGateway('nest-fastify', subgraphUrlEnv(subgraphs));
const pid = gateway.child.pid;
const results = [];
try {
  for (const query of QUERIES) {
    for (const name of Object.keys(ARMS)) await arm(gateway.url, pid, { ...query, count: 50 }, ARMS[name]); // warm-up
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? Object.keys(ARMS) : Object.keys(ARMS).reverse();
      for (const name of order) results.push({ query: query.name, arm: name, round, ...(await arm(gateway.url, pid, query, ARMS[name])) });
    }
  }
} finally {
  await gateway.stop();
  await Promise.all(Object.values(subgraphs).map((s) => s.stop()));
}
const summary = [];
for (const query of QUERIES) {
  for (const name of Object.keys(ARMS)) {
    const rows = results.filter((r) => r.query === query.name && r.arm === name);
    const cpu = rows.map((r) => r.cpuMsPerRequest).sort((a, b) => a - b);
    summary.push({
      query: query.name,
      arm: name,
      medianCpuMsPerRequest: cpu[Math.floor(cpu.length / 2)],
      minCpuMsPerRequest: cpu[0],
      maxCpuMsPerRequest: cpu[cpu.length - 1],
      wireBytesPerAnswer: rows[0].wireBytesPerAnswer,
    });
  }
}
console.log(JSON.stringify({ node: process.version, rounds: ROUNDS, concurrency: CONCURRENCY, summary, results }, null, 2));
