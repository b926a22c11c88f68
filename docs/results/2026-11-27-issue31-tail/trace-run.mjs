// One §C-like window with the gateway's raw `--trace-gc-nvp` kept, for what `pnpm bench`'s GC
// columns do not show: each full collection's whole cycle (marking steps on the main thread,
// the wall time from marking start to its final pause, concurrent marking's CPU) and whether the
// old generation grows by promotion or by objects allocated there directly (pretenured or large).
// Usage (repository root, after `pnpm build`):
//   node_modules/.bin/node docs/results/2026-11-27-issue31-tail/trace-run.mjs <out.log> [node flags…]
// Env: RATE (500), DUR (20), WARMUP (5), BASE_PORT (4860), LAG (1: preload lag-probe.mjs). Pinned as `pnpm bench` pins.
// Added for ../2026-11-27-issue31-retention (defaults as before): TARGET (nest-fastify), BODY (a request
// body instead of GetUserWithProducts), CONNS (the load pool's connections, 512), EXTRA (JSON: more gateway env).
// Added for ../2026-11-27-issue31-gc-threads: KIND (mount; `router` with TARGET=apollo-router runs the Router).
import { createWriteStream } from 'node:fs';
import { GET_USER_WITH_PRODUCTS_QUERY, requestBody } from '../../../bench/dist/load/queries.js';
import { runOpenLoop } from '../../../bench/dist/load/open-loop.js';
import { summarize } from '../../../bench/dist/measure/samples.js';
import { pinProcess } from '../../../bench/dist/measure/pinning.js';
import { resolveLayout } from '../../../bench/dist/run/layout.js';
import { createSetups } from '../../../bench/dist/targets/setups.js';
import { findRouterBinary } from '../../../bench/dist/targets/router-binary.js';
import { startTarget } from '../../../bench/dist/targets/start-target.js';
import { startSubgraphs } from '../../../bench/dist/targets/subgraph-processes.js';

const [out, ...flags] = process.argv.slice(2);
// LAG=1: the event-loop delay probe (lag-probe.mjs) preloaded; its lines are not the gateway's own.
const nodeFlags = process.env.LAG === '1' ? [`--import=${new URL('lag-probe.mjs', import.meta.url).pathname}`, ...flags] : flags;
const rate = Number(process.env.RATE ?? 500);
const durationSec = Number(process.env.DUR ?? 20);
const warmupSec = Number(process.env.WARMUP ?? 5);
const basePort = Number(process.env.BASE_PORT ?? 4860);
/** Brackets the measured window in the log (the whole run is kept: pretenuring decisions come during warm-up). */
const MARK = '=== measured window ===';

const { layout } = resolveLayout({ pin: true, cpus: {} });
if (layout) pinProcess(process.pid, layout.load);
const none = (await createSetups()).none;
const extra = JSON.parse(process.env.EXTRA ?? '{}');
const setup = { ...none, gatewayEnv: (context) => ({ ...none.gatewayEnv(context), ...extra }) };
const subgraphs = await startSubgraphs(basePort + 1, layout?.subgraphs);
const target = await startTarget({ name: process.env.TARGET ?? 'nest-fastify', kind: process.env.KIND ?? 'mount' }, setup, {
  port: basePort,
  subgraphUrls: subgraphs.urls,
  cpus: layout?.gateway,
  nodeFlags,
  router: process.env.KIND === 'router' ? await findRouterBinary() : null,
  setupContext: {},
});
const file = createWriteStream(out);
target.process.onStdout((chunk) => file.write(chunk));
const connections = Number(process.env.CONNS ?? 512);
const body = () => process.env.BODY ?? requestBody(GET_USER_WITH_PRODUCTS_QUERY);
const load = (sec) => runOpenLoop({ url: target.url, rate, durationSec: sec, connections, body });
await load(warmupSec);
file.write(`\n${MARK}\n`);
const measured = await load(durationSec);
file.write(`\n${MARK}\n`);
await target.stop();
await subgraphs.stop();
file.end();
const latency = summarize(measured.samples);
console.log(JSON.stringify({ flags, ok: measured.ok, errors: measured.errors, p50: latency?.p50, p99: latency?.p99, p999: latency?.p999 }));
