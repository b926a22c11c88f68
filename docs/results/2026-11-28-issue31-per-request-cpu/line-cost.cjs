// One log line per event-loop turn through sonic-boom (pino's destination) to a pipe, 100,000 lines;
// prints CPU (main thread and threads) per line. Usage, from gateway/ (where pino resolves), pinned as
// pnpm bench pins a gateway: taskset -c 0 ../node_modules/.bin/node line-cost.cjs <minLength> | taskset -c 1 cat > /dev/null
const SonicBoom = require(require.resolve('sonic-boom', { paths: [require.resolve('pino')] }));
const min = Number(process.argv[2]);
const s = new SonicBoom({ fd: 1, minLength: min, periodicFlush: min ? 100 : 0 });
const line = JSON.stringify({ level: 30, time: Date.now(), service: 'gateway', requestId: 'b7c4e0f2-1234-4567-89ab-cdef01234567', operationName: 'GetUserWithProducts', status: 200, durationMs: 12.345, client: { name: 'bench', version: '1' }, msg: 'request' }) + '\n';
let n = 0; const t0 = process.cpuUsage();
function tick() { s.write(line); n += 1; if (n < 100000) setImmediate(tick); else s.flush(() => { const u = process.cpuUsage(t0); process.stderr.write(`minLength ${min}: ${((u.user + u.system) / n).toFixed(2)} µs CPU per line (main+threads), ${line.length} B lines\n`); s.end(); }); }
tick();
