// RSS and heap of a bare Node with the builtins the gateway needs, without and with http2, https
// and tls (loaded at import by fastify, undici's HTTP/2 client, ws and @nestjs/core, none used by default).
// Usage: node --expose-gc builtins-cost.cjs without|with
for (const m of ['http', 'net', 'crypto', 'zlib', 'stream', 'cluster', 'worker_threads', 'dns', 'assert', 'perf_hooks', 'fs/promises']) require('node:' + m);
if (process.argv[2] === 'with') for (const m of ['http2', 'https', 'tls']) require('node:' + m);
setTimeout(() => { globalThis.gc(); const r = require('fs').readFileSync('/proc/self/status', 'utf8').match(/VmRSS:\s+(\d+)/)[1]; console.log(process.argv[2], 'builtins', process.moduleLoadList.filter((m) => m.startsWith('NativeModule')).length, 'heapUsed MB', (process.memoryUsage().heapUsed / 1e6).toFixed(2), 'RSS MB', (r / 1024).toFixed(1)); }, 300);
