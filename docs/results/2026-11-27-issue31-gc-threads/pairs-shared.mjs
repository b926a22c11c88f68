// §C-baseline windows of our gateway and Apollo Router alternated (ABBA) against ONE set of
// subgraphs started once, as `pnpm bench` starts them once per run, so both targets meet
// subgraphs of the same age. Prints one JSON line per window.
// Usage: node_modules/.bin/node docs/results/2026-11-27-issue31-gc-threads/pairs-shared.mjs
// Env: QUERY (complex: ComplexQuery), PAIRS (rounds, 4), RATE (500), DUR (20), WARMUP (5), SUBGRAPH_WARMUP (20 s of load through our
// gateway first), BASE_PORT (4860); ARMS (below); ONLY=ours|router (one target per round, no arms).
// The arms of README.md: ARMS=";--no-concurrent-marking;--v8-pool-size=1" PAIRS=3 (arms-1.txt) and
// ARMS=";--v8-pool-size=1;--import=<abs path>/nice-preload.mjs;--v8-pool-size=1 --import=<…>/nice-preload.mjs"
// PAIRS=3 (arms-2.txt), on the build before ADR 043 (today: add EXTRA='{"GATEWAY_V8_WORKER_NICE":"0"}').
import { COMPLEX, GET_USER_WITH_PRODUCTS_QUERY, requestBody } from '../../../bench/dist/load/queries.js';
import { runClosedLoop } from '../../../bench/dist/load/closed-loop.js';
import { runOpenLoop } from '../../../bench/dist/load/open-loop.js';
import { summarize } from '../../../bench/dist/measure/samples.js';
import { pinProcess } from '../../../bench/dist/measure/pinning.js';
import { readCpuSeconds, readPeakRssMb } from '../../../bench/dist/measure/proc-stats.js';
import { resolveLayout } from '../../../bench/dist/run/layout.js';
import { createSetups } from '../../../bench/dist/targets/setups.js';
import { findRouterBinary } from '../../../bench/dist/targets/router-binary.js';
import { startTarget } from '../../../bench/dist/targets/start-target.js';
import { startSubgraphs } from '../../../bench/dist/targets/subgraph-processes.js';

const pairs = Number(process.env.PAIRS ?? 4);
const rate = Number(process.env.RATE ?? 500);
const durationSec = Number(process.env.DUR ?? 20);
const warmupSec = Number(process.env.WARMUP ?? 5);
const basePort = Number(process.env.BASE_PORT ?? 4860);
const { layout } = resolveLayout({ pin: true, cpus: {} });
if (layout) pinProcess(process.pid, layout.load);
const none = (await createSetups()).none;
// EXTRA: JSON of more env for our gateway, e.g. {"GATEWAY_V8_WORKER_NICE":"0"} for the build as it was before ADR 043.
const extra = JSON.parse(process.env.EXTRA ?? '{}');
const setup = { ...none, gatewayEnv: (context) => ({ ...none.gatewayEnv(context), ...extra }) };
const router = await findRouterBinary();
const subgraphs = await startSubgraphs(basePort + 1, layout?.subgraphs);
const TARGETS = {
  ours: { name: 'nest-fastify', kind: 'mount' },
  router: { name: 'apollo-router', kind: 'router' },
};
// QUERY=complex: §A's ComplexQuery instead of GetUserWithProducts.
const query = process.env.QUERY === 'complex' ? COMPLEX : GET_USER_WITH_PRODUCTS_QUERY;
const body = () => requestBody(query);
// ARMS: settings for our gateway separated by ';', each node flags (`--…`) and env (`NAME=value`);
// an empty arm is the build as it is. Each window ours; the arms alternate in a rotating order.
// Without ARMS: ours against the Router.
const arms = process.env.ARMS?.split(';').map((a) => a.trim());
// LOAD=closed: §A's shape instead (100 closed-loop connections), with the target's peak RSS (VmHWM)
// and CPU-ms per request over the measured window.
const closed = process.env.LOAD === 'closed';
async function window(key, warm, measured, arm = []) {
  const flags = arm.filter((token) => token.startsWith('--'));
  const env = Object.fromEntries(arm.filter((token) => !token.startsWith('--')).map((token) => token.split('=')));
  const armSetup = { ...setup, gatewayEnv: (context) => ({ ...setup.gatewayEnv(context), ...env }) };
  const target = await startTarget(TARGETS[key], armSetup, {
    port: basePort,
    subgraphUrls: subgraphs.urls,
    cpus: layout?.gateway,
    nodeFlags: flags,
    router,
    setupContext: {},
  });
  try {
    const load = (durationSec) =>
      closed
        ? runClosedLoop({ url: target.url, connections: 100, durationSec, body })
        : runOpenLoop({ url: target.url, rate, durationSec, body });
    await load(warm);
    if (measured === 0) return;
    const [pid] = target.pids();
    const cpuBefore = readCpuSeconds(pid);
    // Our gateway's collections in the measured window (bench/src/measure/gc-trace.ts); none for the Router.
    const gcMark = target.gcTrace?.mark();
    const result = await load(measured);
    const cpuMsPerRequest = Number((((readCpuSeconds(pid) - cpuBefore) * 1000) / result.ok).toFixed(3));
    const usage = closed ? { reqPerSec: Math.round(result.ok / measured), cpuMsPerRequest, peakRssMb: Math.round(readPeakRssMb(pid)) } : { cpuMsPerRequest };
    const gc = gcMark && target.gcTrace.summarize(gcMark, result.ok);
    const l = summarize(result.samples);
    console.log(JSON.stringify({ target: key, ...(arm.length > 0 && { arm: arm.join(' ') }), ...usage, ok: result.ok, errors: result.errors, p50: l?.p50, p99: l?.p99, p999: l?.p999, ...(gc && { gc }) }));
  } finally {
    await target.stop();
  }
}
await window('ours', Number(process.env.SUBGRAPH_WARMUP ?? 20), 0);
for (let i = 0; arms && i < pairs; i++) {
  for (let j = 0; j < arms.length; j++) {
    const arm = arms[(i + j) % arms.length];
    await window('ours', warmupSec, durationSec, arm ? arm.split(' ') : []);
  }
}
for (let i = 0; !arms && i < pairs; i++) {
  const order = process.env.ONLY ? [process.env.ONLY] : i % 2 === 0 ? ['ours', 'router'] : ['router', 'ours'];
  for (const key of order) await window(key, warmupSec, durationSec);
}
await subgraphs.stop();
