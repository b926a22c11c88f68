// Summarizes the measured window of a trace-run.mjs log (see there). Prints one JSON line:
// requests finished, scavenges, promoted KB per request, and per full collection its final
// pause, its marking steps on the main thread, the wall time from marking start to the final
// pause, concurrent marking's CPU; plus the old generation's growth by direct allocation
// (pretenured or large objects) next to its growth by promotion, V8's pretenuring decisions, and
// (with lag-probe.mjs) the event loop's worst delay per second.
// Usage: node gc-window.mjs <log> [label]
import { readFileSync } from 'node:fs';

const [file, label = file] = process.argv.slice(2);
const text = readFileSync(file, 'utf8');
const parts = text.split('=== measured window ===');
const window = parts.length >= 3 ? parts[1] : text;
const fieldsOf = (line) => Object.fromEntries(line.split(' ').filter((p) => p.includes('=')).map((p) => p.split('=')));
let requests = 0;
const events = [];
const lag = [];
for (const line of window.split('\n')) {
  if (line.includes('"msg":"request completed"')) requests++;
  else if (line.startsWith('LAGPROBE ')) lag.push(Number(fieldsOf(line).max));
  else if (line.includes(' gc=') && line.includes(' allocated=')) events.push(fieldsOf(line));
}
const num = (e, k) => {
  const v = Number(e[k]);
  return Number.isFinite(v) && v < 2 ** 50 ? v : 0;
};
const scav = events.filter((e) => e.gc === 's' || e.gc === 'mms');
const mcs = events.filter((e) => e.gc === 'mc');
const sum = (list, k) => list.reduce((a, e) => a + num(e, k), 0);
// Old generation after each scavenge: all objects minus what stayed in the young generation.
// Between two scavenges (sweeping done: not the first two after a full collection) its growth
// minus the later one's promotion is what was allocated in the old generation directly.
let direct = 0;
let directIntervals = 0;
let sinceMc = 0;
let previousOld = null;
for (const e of events) {
  if (e.gc === 'mc') {
    sinceMc = 0;
    previousOld = null;
    continue;
  }
  sinceMc++;
  // new_space_survived: what the scavenge copied within the young generation (promoted not included).
  const old = num(e, 'end_object_size') - num(e, 'new_space_survived');
  if (previousOld !== null && sinceMc > 2) {
    direct += old - previousOld - num(e, 'promoted');
    directIntervals++;
  }
  previousOld = old;
}
const promotedInDirect = (() => {
  let total = 0;
  let n = 0;
  let since = 0;
  let prev = null;
  for (const e of events) {
    if (e.gc === 'mc') {
      since = 0;
      prev = null;
      continue;
    }
    since++;
    if (prev !== null && since > 2) {
      total += num(e, 'promoted');
      n++;
    }
    prev = e;
  }
  return total;
})();
const r1 = (v) => Math.round(v * 10) / 10;
console.log(
  JSON.stringify({
    label,
    requests,
    scavenges: scav.length,
    scavengePauseMs: r1(sum(scav, 'pause')),
    allocatedKbPerReq: r1(sum(events, 'allocated') / requests / 1000),
    promotedKbPerReq: r1(sum(events, 'promoted') / requests / 1000),
    fullGcs: mcs.map((e) => ({
      pauseMs: num(e, 'pause'),
      stepsMs: num(e, 'incremental'),
      steps: num(e, 'incremental_steps_count'),
      longestStepMs: num(e, 'incremental_longest_step'),
      wallMs: num(e, 'incremental_walltime_duration'),
      concurrentMarkMs: num(e, 'background.mark'),
      heapMbBefore: r1(num(e, 'start_object_size') / 1e6),
      heapMbAfter: r1(num(e, 'end_object_size') / 1e6),
    })),
    oldGrowth: { intervals: directIntervals, promotedMb: r1(promotedInDirect / 1e6), directMb: r1(direct / 1e6) },
    ...(lag.length > 0 && {
      loopLag: {
        seconds: lag.length,
        maxMs: Math.max(...lag),
        secondsOver50Ms: lag.filter((v) => v > 50).length,
        secondsOver100Ms: lag.filter((v) => v > 100).length,
        medianOfSecondMaxMs: [...lag].sort((a, b) => a - b)[Math.floor(lag.length / 2)],
      },
    }),
    pretenuringLines: (text.match(/pretenur|tenured/gi) ?? []).length,
  }),
);
