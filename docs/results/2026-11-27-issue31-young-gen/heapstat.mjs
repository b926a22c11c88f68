import v8 from 'node:v8';
import fs from 'node:fs';
const max = {};
const out = process.env.HEAPSTAT_OUT ?? '/tmp/s31/heapstat.json';
setInterval(() => {
  for (const s of v8.getHeapSpaceStatistics()) max[s.space_name] = Math.max(max[s.space_name] ?? 0, s.space_size / 1048576);
  const m = process.memoryUsage();
  for (const k of ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers']) max[k] = Math.max(max[k] ?? 0, m[k] / 1048576);
  const h = v8.getHeapStatistics();
  max.malloced = Math.max(max.malloced ?? 0, h.malloced_memory / 1048576);
  max.peak_malloced = h.peak_malloced_memory / 1048576;
  max.physical = Math.max(max.physical ?? 0, h.total_physical_size / 1048576);
  fs.writeFileSync(out, JSON.stringify(Object.fromEntries(Object.entries(max).map(([k, v]) => [k, Math.round(v)]))));
}, 200).unref();
