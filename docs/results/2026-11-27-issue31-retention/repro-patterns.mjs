// Which ways of holding a closure make V8 keep it (and what it captures) through scavenges.
// Usage: N=16000 node_modules/.bin/node --expose-gc docs/results/2026-11-27-issue31-retention/repro-patterns.mjs <pattern>
// Prints the heap growth after three scavenges (kept by the scavenger) and after a full collection.
const tick = () => new Promise((r) => setTimeout(r, 5));
const which = process.argv[2];
class Res { constructor() { this.a = 1; this.b = 2; } }
const patterns = {
  plain: (i) => { const payload = new Array(500).fill(i); const r = new Res(); r.x = payload.length; return r; },
  fnOnClass: (i) => { const payload = new Array(500).fill(i); const r = new Res(); r.w = () => payload; return r; },
  fnOnLiteral: (i) => { const payload = new Array(500).fill(i); const r = { a: 1 }; r.w = () => payload; return r; },
  fnInLiteral: (i) => { const payload = new Array(500).fill(i); return { a: 1, w: () => payload }; },
  getterLiteral: (i) => { const payload = new Array(500).fill(i); return { a: 1, get w() { return payload; } }; },
  getSetLiteral: (i) => { const payload = new Array(500).fill(i); return { h: 1, get s() { return payload; }, set s(v) { payload[0] = v; } }; },
  nestedGetSet: (i) => { const ctx = { payload: new Array(500).fill(i) }; return { r: { h: 1, get s() { return ctx.payload; }, set s(v) { ctx.payload[0] = v; } } }; },
  onceListener: (i) => { const payload = new Array(500).fill(i); const { EventEmitter } = globalThis.__ee; const e = new EventEmitter(); e.once('x', () => payload); return e; },
};
globalThis.__ee = await import('node:events');
const fn = patterns[which];
gc(); await tick(); gc(); await tick();
const b = process.memoryUsage().heapUsed;
const N = Number(process.env.N ?? 4000); for (let i = 0; i < N; i++) { fn(i); if (i % 100 === 0) await tick(); }
await tick(); gc({ type: 'minor' }); await tick(); gc({ type: 'minor' }); await tick(); gc({ type: 'minor' }); await tick();
const m = process.memoryUsage().heapUsed;
gc(); await tick();
console.log(which.padEnd(16), 'after 3 minor +MB', ((m - b) / 1e6).toFixed(2), ' after major', ((process.memoryUsage().heapUsed - b) / 1e6).toFixed(2));
