// Diagnostic preload (node --import=…/wait-probe.mjs), not part of the gateway: per inbound request,
// R <arrival: headers parsed> <wait before the app sees it (per-client queue)> <app time> <in flight>;
// per subgraph fetch, F <dispatch> <wait for a pooled socket> <to the answer's headers> <body> <in
// flight> <pool>; G <gc start> <duration> <kind: 1 scavenge, 4 mark-compact>; L <loop stall start>
// <ms late>, stalls over 20 ms. One file per process in $PROBE_DIR (/tmp); wait-summary.py reads it.
import http from 'node:http';
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
let buf = [];
let Pool;
try { Pool = createRequire(new URL('../../../gateway/package.json', import.meta.url))('undici').Pool; } catch {}
const out = `${process.env.PROBE_DIR ?? '/tmp'}/wait-probe-${process.argv[1].split('/').slice(-2).join('_')}-${process.pid}.txt`;
import { PerformanceObserver } from 'node:perf_hooks';
new PerformanceObserver((l) => { for (const e of l.getEntries()) buf.push(`G ${e.startTime.toFixed(1)} ${e.duration.toFixed(1)} ${e.detail?.kind}\n`); }).observe({ entryTypes: ['gc'] });
let last = performance.now();
setInterval(() => { const t = performance.now(); if (t - last > 30) buf.push(`L ${last.toFixed(1)} ${(t - last - 10).toFixed(1)}\n`); last = t; }, 10).unref();
const now = () => performance.now();
let inflight = 0;
let fetching = 0;
setInterval(() => { if (buf.length) { appendFileSync(out, buf.join('')); buf = []; } }, 500).unref();
class ProbeMessage extends http.IncomingMessage {
  constructor(socket) { super(socket); this.__t0 = now(); }
}
const create = http.createServer;
http.createServer = function (options, handler) {
  if (typeof options === 'function') { handler = options; options = {}; }
  return create.call(this, { ...(options ?? {}), IncomingMessage: ProbeMessage }, handler);
};
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && req.__t0 !== undefined) {
    const t1 = now();
    inflight++;
    const at = inflight;
    res.once('finish', () => { inflight--; buf.push(`R ${req.__t0.toFixed(2)} ${(t1 - req.__t0).toFixed(2)} ${(now() - t1).toFixed(2)} ${at}\n`); });
  }
  return emit.apply(this, arguments);
};
if (Pool) {
const ids = new WeakMap(); let nextId = 0;
const dispatch = Pool.prototype.dispatch;
Pool.prototype.dispatch = function (opts, handler) {
  const t0 = now();
  if (!ids.has(this)) ids.set(this, nextId++);
  const pid = ids.get(this);
  fetching++;
  const at = fetching;
  const start = handler.onRequestStart, head = handler.onResponseStart, end = handler.onResponseEnd;
  let t1 = 0, t2 = 0;
  handler.onRequestStart = function (...a) { t1 = now(); return start.apply(this, a); };
  handler.onResponseStart = function (...a) { t2 = now(); return head.apply(this, a); };
  handler.onResponseEnd = function (...a) { const t3 = now(); fetching--; buf.push(`F ${t0.toFixed(2)} ${(t1 - t0).toFixed(2)} ${(t2 - t1).toFixed(2)} ${(t3 - t2).toFixed(2)} ${at} ${pid}\n`); return end.apply(this, a); };
  return dispatch.call(this, opts, handler);
};
}
