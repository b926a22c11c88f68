import v8 from 'node:v8';
setTimeout(() => {
  const m = process.memoryUsage(); const h = v8.getHeapStatistics();
  const sp = Object.fromEntries(v8.getHeapSpaceStatistics().filter(s=>s.space_size>0).map(s => [s.space_name, `${(s.space_size/1048576).toFixed(1)}/${(s.space_used_size/1048576).toFixed(1)}`]));
  console.error('IDLE', JSON.stringify({ rss: m.rss>>20, heapTotal: m.heapTotal>>20, heapUsed: m.heapUsed>>20, external: m.external>>20, ab: m.arrayBuffers>>20, malloced: h.malloced_memory>>20, peakMalloced: h.peak_malloced_memory>>20, physical: h.total_physical_size>>20, sp }));
  globalThis.gc?.();
  const m2 = process.memoryUsage();
  console.error('AFTER-GC', m2.rss>>20, m2.heapTotal>>20, m2.heapUsed>>20);
}, Number(process.env.IDLE_MS ?? 8000)).unref();
