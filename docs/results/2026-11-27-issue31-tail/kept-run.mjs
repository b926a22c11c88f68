// What outlives a scavenge: V8's sampling heap profiler over a §C-like window, dropping samples
// of objects a scavenge collected but keeping those a full collection collected (stopSampling
// itself forces one, which is why pnpm bench:heap's survivors window finds so little). So the
// samples are what was promoted (dead since or not) plus what is still young and alive at the end.
// Usage (repository root, after `pnpm build`):
//   node_modules/.bin/node docs/results/2026-11-27-issue31-tail/kept-run.mjs <out.json> [node flags…]
// Env: RATE (150), DUR (10: the window, opened at the first full collection after WARMUP), WARMUP (5), BASE_PORT (4890). Pinned as `pnpm bench` pins.
import { writeFileSync } from 'node:fs';
import { freePort } from '@fedgw/test-support';
import { Inspector } from '../../../bench/dist/heap/inspector.js';
import { summarizeSampling } from '../../../bench/dist/heap/sampling.js';
import { GET_USER_WITH_PRODUCTS_QUERY, requestBody } from '../../../bench/dist/load/queries.js';
import { runOpenLoop } from '../../../bench/dist/load/open-loop.js';
import { summarizeGc } from '../../../bench/dist/measure/gc-trace.js';
import { pinProcess } from '../../../bench/dist/measure/pinning.js';
import { resolveLayout } from '../../../bench/dist/run/layout.js';
import { createSetups } from '../../../bench/dist/targets/setups.js';
import { startTarget } from '../../../bench/dist/targets/start-target.js';
import { startSubgraphs } from '../../../bench/dist/targets/subgraph-processes.js';

const [out, ...flags] = process.argv.slice(2);
const rate = Number(process.env.RATE ?? 150);
const durationSec = Number(process.env.DUR ?? 10);
const warmupSec = Number(process.env.WARMUP ?? 5);
const basePort = Number(process.env.BASE_PORT ?? 4890);

const { layout } = resolveLayout({ pin: true, cpus: {} });
if (layout) pinProcess(process.pid, layout.load);
const setup = (await createSetups()).none;
const subgraphs = await startSubgraphs(basePort + 1, layout?.subgraphs);
const inspectPort = await freePort();
const target = await startTarget({ name: 'nest-fastify', kind: 'mount' }, setup, {
  port: basePort,
  subgraphUrls: subgraphs.urls,
  cpus: layout?.gateway,
  nodeFlags: [`--inspect=127.0.0.1:${inspectPort}`, ...flags],
  router: null,
  setupContext: {},
});
const inspector = await Inspector.connect('127.0.0.1', inspectPort);
const load = (sec) => runOpenLoop({ url: target.url, rate, durationSec: sec, body: () => requestBody(GET_USER_WITH_PRODUCTS_QUERY) });
await load(warmupSec);
// The window opens right after a full collection, so the next one (~20 s later at 150 req/s) does
// not fall inside it; the load runs on until it closes.
const trace = target.gcTrace;
const background = runOpenLoop({ url: target.url, rate, durationSec: 60 + durationSec, body: () => requestBody(GET_USER_WITH_PRODUCTS_QUERY) });
const seen = trace.mark().events;
while (!trace.since({ events: seen, requests: 0 }).some((event) => event.kind === 'mark-compact')) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const mark = trace.mark();
await inspector.call('HeapProfiler.enable');
// includeObjectsCollectedByMajorGC: stopSampling forces a full collection (V8's reason: "sampling
// profiler"), which would otherwise drop every promoted object that died before it.
await inspector.call('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true });
await new Promise((resolve) => setTimeout(resolve, durationSec * 1000));
const kept = await inspector.call('HeapProfiler.stopSampling');
const requests = trace.requestsSince(mark);
const gc = summarizeGc(trace.since(mark), requests);
const measured = { ok: requests, errors: 0 };
background.catch(() => {});
const summary = summarizeSampling(kept.profile, requests, 40);
inspector.close();
await target.stop();
await subgraphs.stop();
writeFileSync(out, `${JSON.stringify({ rate, durationSec, flags, ok: measured.ok, errors: measured.errors, requests, gc, kept: summary }, null, 1)}\n`);
console.log(`${requests} requests; ${JSON.stringify(gc)}; kept ${summary.totalKbPerRequest} KB per request`);
