import fs from 'node:fs';
import { GET_USER_WITH_PRODUCTS_QUERY, requestBody } from '../../../bench/dist/load/queries.js';
import { runClosedLoop } from '../../../bench/dist/load/closed-loop.js';
import { pinProcess } from '../../../bench/dist/measure/pinning.js';
import { resolveLayout } from '../../../bench/dist/run/layout.js';
import { createSetups } from '../../../bench/dist/targets/setups.js';
import { startTarget } from '../../../bench/dist/targets/start-target.js';
import { startSubgraphs } from '../../../bench/dist/targets/subgraph-processes.js';
const basePort = 4960;
const { layout } = resolveLayout({ pin: true, cpus: {} });
if (layout) pinProcess(process.pid, layout.load);
const none = (await createSetups()).none;
const extra = JSON.parse(process.env.EXTRA ?? '{}');
const setup = { ...none, gatewayEnv: (c) => ({ ...none.gatewayEnv(c), ...extra }) };
const subgraphs = await startSubgraphs(basePort + 1, layout?.subgraphs);
const flags = (process.env.FLAGS ?? '').split(' ').filter(Boolean);
const target = await startTarget({ name: 'nest-fastify', kind: 'mount' }, setup, { port: basePort, subgraphUrls: subgraphs.urls, cpus: layout?.gateway, nodeFlags: flags, setupContext: {} });
const [pid] = target.pids();
function summary(label) {
  const text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const groups = {};
  let name = '';
  for (const line of text.split('\n')) {
    const m = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/);
    if (m) { name = m[1] || '[anon]'; if (name.includes('/')) name = name.split('/').pop(); continue; }
    const r = line.match(/^Rss:\s+(\d+) kB/);
    if (r) groups[name] = (groups[name] ?? 0) + Number(r[1]);
  }
  const rows = Object.entries(groups).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k}=${(v / 1024).toFixed(1)}`);
  const st = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)|VmRSS:\s+(\d+)/g);
  console.log(label, st.join(' '), rows.join(' '));
}
summary('idle-after-start');
const body = () => requestBody(GET_USER_WITH_PRODUCTS_QUERY);
await runClosedLoop({ url: target.url, connections: 100, durationSec: 5, body });
summary('after-5s');
await runClosedLoop({ url: target.url, connections: 100, durationSec: 20, body });
summary('after-25s');
await new Promise((r) => setTimeout(r, 3000));
summary('idle-3s');
await target.stop(); await subgraphs.stop();
