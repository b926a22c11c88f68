// Starts the subgraphs and nest-fastify (pinned as pnpm bench pins), runs 10 s of §C load, waits 2 s and
// has the gateway write a heap snapshot (SIGUSR2) to /tmp/probe/snaps. Run from this folder's repository root.
import { GET_USER_WITH_PRODUCTS_QUERY, requestBody } from '../../../../bench/dist/load/queries.js';
import { runOpenLoop } from '../../../../bench/dist/load/open-loop.js';
import { resolveLayout } from '../../../../bench/dist/run/layout.js';
import { createSetups } from '../../../../bench/dist/targets/setups.js';
import { startTarget } from '../../../../bench/dist/targets/start-target.js';
import { startSubgraphs } from '../../../../bench/dist/targets/subgraph-processes.js';
import { setTimeout as sleep } from 'node:timers/promises';
const { layout } = resolveLayout({ pin: true, cpus: {} });
const setup = (await createSetups()).none;
const subgraphs = await startSubgraphs(4871, layout?.subgraphs);
const target = await startTarget({ name: 'nest-fastify', kind: 'mount' }, setup, { port: 4870, subgraphUrls: subgraphs.urls, cpus: layout?.gateway, nodeFlags: ['--heapsnapshot-signal=SIGUSR2', '--diagnostic-dir=/tmp/probe/snaps'], router: null, setupContext: {} });
const body = () => requestBody(GET_USER_WITH_PRODUCTS_QUERY);
await runOpenLoop({ url: target.url, rate: 500, durationSec: 10, body });
await sleep(2000);
const pid = target.pids ? target.pids()[0] : target.process.pid;
process.kill(pid, 'SIGUSR2');
await sleep(15000);
await target.stop(); await subgraphs.stop();
