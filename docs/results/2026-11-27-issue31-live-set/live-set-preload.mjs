// Preload (--import) for live-set.mjs: records every module the process loads, CommonJS and ESM
// alike, through a synchronous load hook (module.registerHooks, Node ≥ 22.15), with the byte
// length of the source it was given. After IDLE_MS of idle it runs gc() (needs --expose-gc) and
// writes one JSON line to fd 3: memoryUsage after gc and the module list. process.moduleLoadList
// names only Node's own built-ins; the hooks see the files, and the resolve hook the first importer.
import { registerHooks } from 'node:module';
import { writeSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import { fileURLToPath } from 'node:url';

const loaded = new Map();
const firstImporter = new Map();
// LIVE_SET_HOOKS=0: memory only, without the hooks' own cost (they slow loading and keep the maps).
if (process.env.LIVE_SET_HOOKS !== '0') registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    if (!firstImporter.has(result.url)) firstImporter.set(result.url, context.parentURL);
    return result;
  },
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    if (url.startsWith('file:') && !loaded.has(url)) {
      const source = result.source;
      const bytes = source == null ? 0 : typeof source === 'string' ? Buffer.byteLength(source) : source.byteLength;
      loaded.set(url, { bytes, format: result.format });
    }
    return result;
  },
});

const idleMs = Number(process.env.LIVE_SET_IDLE_MS ?? 6000);
setTimeout(() => {
  globalThis.gc();
  globalThis.gc();
  const memory = process.memoryUsage();
  const path = (url) => (url?.startsWith('file:') ? fileURLToPath(url) : url);
  const modules = [...loaded].map(([url, info]) => ({ path: path(url), ...info, from: path(firstImporter.get(url)) }));
  // Node's own bundled undici (fetch, WebSocket…): a built-in, so no hook sees it load.
  const builtinUndici = process.moduleLoadList.includes('NativeModule internal/deps/undici/undici');
  // LIVE_SET_SNAPSHOT=<file>: a heap snapshot too, after the gc and the figures.
  if (process.env.LIVE_SET_SNAPSHOT) writeHeapSnapshot(process.env.LIVE_SET_SNAPSHOT);
  writeSync(3, `${JSON.stringify({ memory, builtinUndici, modules })}\n`);
}, idleMs).unref();
