// Usage: node loaded-modules.mjs <module> [start-gateway]
// Imports <module> (and, with start-gateway, starts a gateway from an empty config) and
// prints, as JSON, every module file that was loaded: ESM through a load hook, CommonJS
// through require.cache (nested require() calls bypass the hook).
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const [specifier, mode] = process.argv.slice(2);
const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url));
port1.unref();
register('./record-loads.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const imported = await import(specifier);
if (mode === 'start-gateway') {
  const config = imported.parseConfig({ SUPERGRAPH_PATH: process.env.SUPERGRAPH_PATH, LOG_LEVEL: 'silent' });
  const gateway = await imported.createGatewayFromConfig(config, { logger: imported.createLogger(config) });
  await gateway.start();
  await gateway.stop();
}
// The loader thread's messages arrive in order: once a last module's URL has come, every one before it has.
const SENTINEL = 'data:text/javascript,export default "last load"';
const sentinelSeen = new Promise((resolve) =>
  port1.on('message', (url) => {
    if (url === SENTINEL) resolve();
  }),
);
port1.ref();
await import(SENTINEL);
await sentinelSeen;
port1.unref();
loaded.delete(SENTINEL);
const require = createRequire(import.meta.url);
for (const file of Object.keys(require.cache)) loaded.add(`file://${file}`);
process.stdout.write(JSON.stringify([...loaded]));
