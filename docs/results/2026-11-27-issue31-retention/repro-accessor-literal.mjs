const tick = () => new Promise((r) => setTimeout(r, 5));
async function measure(label, fn) {
  gc(); await tick(); gc(); await tick();
  const b = process.memoryUsage().heapUsed;
  for (let i = 0; i < 4000; i++) { fn(i); if (i % 100 === 0) await tick(); }
  await tick(); gc({ type: 'minor' }); await tick(); gc({ type: 'minor' }); await tick(); gc({ type: 'minor' }); await tick();
  const m = process.memoryUsage().heapUsed;
  gc(); await tick();
  console.log(label.padEnd(40), 'after 3 minor +MB', ((m - b)/1e6).toFixed(2), ' after major', ((process.memoryUsage().heapUsed - b)/1e6).toFixed(2));
}
function make(ctx) {
  const response = { http: { headers: 1, get status() { return ctx.response.http.status; }, set status(v) { ctx.response.http.status = v; } } };
  return { response, context: ctx };
}
function makeNoAcc(ctx) {
  const response = { http: { headers: 1, status: ctx.response.http.status } };
  return { response, context: ctx };
}
await measure('no accessor', (i) => { const ctx = { payload: new Array(500).fill(i), response: { http: { status: 200 } } }; const r = makeNoAcc(ctx); r.response.http.status; });
await measure('accessor literal (AS pattern)', (i) => { const ctx = { payload: new Array(500).fill(i), response: { http: { status: 200 } } }; const r = make(ctx); r.response.http.status; });
class ResponseHttp { constructor(headers, ctx) { this.headers = headers; this.ctx = ctx; } get status() { return this.ctx.response.http.status; } set status(v) { this.ctx.response.http.status = v; } }
function makeClass(ctx) { const response = { http: new ResponseHttp(1, ctx) }; return { response, context: ctx }; }
await measure('class accessors', (i) => { const ctx = { payload: new Array(500).fill(i), response: { http: { status: 200 } } }; const r = makeClass(ctx); r.response.http.status; });
await measure('accessor literal again', (i) => { const ctx = { payload: new Array(500).fill(i), response: { http: { status: 200 } } }; const r = make(ctx); r.response.http.status; });
