// Samples every allocation (kept or collected) of a process started with --inspect, over `seconds`.
import { createRequire } from 'node:module';
const require = createRequire(new URL('../../../test-support/package.json', import.meta.url));
const { WebSocket } = require('ws');
const [, , port, seconds, out] = process.argv;
const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const ws = new WebSocket(list[0].webSocketDebuggerUrl);
await new Promise((r) => ws.once('open', r));
let id = 0;
const pending = new Map();
ws.on('message', (data) => { const m = JSON.parse(data); if (m.id && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); } });
const call = (method, params = {}) => new Promise((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
await call('HeapProfiler.enable');
console.log(JSON.stringify(await call('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })).slice(0, 200));
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
const res = await call('HeapProfiler.stopSampling');
(await import('node:fs')).writeFileSync(out, JSON.stringify(res.result.profile));
ws.close();
