// Preloaded into the gateway by trace-run.mjs (LAG=1): once a second, the event loop's delay in
// that second (perf_hooks, 1 ms resolution) as one stdout line, so gc-window.mjs can put the loop's
// own stalls next to the collections that caused them. Unref'd: it never keeps the process alive.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
setInterval(() => {
  const ms = (ns) => (ns / 1e6).toFixed(1);
  process.stdout.write(`LAGPROBE max=${ms(histogram.max)} p99=${ms(histogram.percentile(99))} mean=${ms(histogram.mean)}\n`);
  histogram.reset();
}, 1000).unref();
