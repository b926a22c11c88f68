import cluster from 'node:cluster';
import { type ConfigWarning, createLogger, GatewayError, parseConfig } from '@fedgw/gateway';
import { runPrimary } from './cluster/primary.js';
import { clusterWorker } from './cluster/worker.js';
import { logFatalAndExit } from './fatal.js';
import { memoryFlagsInEffect } from './memory-defaults.js';
import { serveGateway } from './serve.js';
import { installShutdown } from './shutdown.js';
import { lowerV8WorkerPriority } from './v8-worker-priority.js';

// The gateway process (loaded by main.ts once the Node version is known to be right): the only
// module that reads process.env.
async function main(): Promise<void> {
  let config: ReturnType<typeof parseConfig>;
  const warnings: ConfigWarning[] = [];
  try {
    config = parseConfig(process.env, { onWarning: (warning) => warnings.push(warning) });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    process.stderr.write(`${error.code}: ${error.message}\n`);
    process.exit(1);
  }
  // Before any load: every process of a cluster has its own threads.
  const v8Workers = lowerV8WorkerPriority(config.v8WorkerNice);
  // GATEWAY_WORKERS > 1: this process is the cluster primary (it forks workers that run this
  // same file and serves nothing itself), or one of its workers.
  if (config.workers > 1 && cluster.isPrimary) {
    const primary = createLogger(config).child({ cluster: 'primary' });
    logFatalAndExit(primary);
    logWarnings(primary, warnings);
    runPrimary(config, primary);
    return;
  }
  const worker = cluster.isWorker ? clusterWorker() : undefined;
  const logger = worker
    ? createLogger(config).child({ worker: cluster.worker?.id, pid: process.pid })
    : createLogger(config);
  logFatalAndExit(logger);
  // Once per process tree: a cluster's primary has said it for its workers.
  if (!worker) logWarnings(logger, warnings);
  try {
    const running = await serveGateway(config, logger, worker ? [worker.plugin] : []);
    installShutdown(running, logger, config.shutdown);
    logger.info(
      {
        url: `${running.url}${config.graphqlPath}`,
        runtime: config.runtime,
        adapter: config.adapter,
        env: config.env,
        v8WorkerNice: config.v8WorkerNice,
        v8WorkersNiced: v8Workers,
        v8MemoryFlags: memoryFlagsInEffect(),
        mallocArenaMax: process.env.MALLOC_ARENA_MAX,
      },
      'gateway listening',
    );
    worker?.reportReady();
  } catch (error) {
    const code = error instanceof GatewayError ? error.code : undefined;
    // The cause's own code (ENOENT, EISDIR, EADDRINUSE) is what an operator acts on.
    const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code;
    logger.fatal({ err: error, code, ...(causeCode !== undefined && { causeCode }) }, 'gateway failed to start');
    logger.flush?.();
    process.exitCode = 1;
    // Give a pretty-print worker time to write the fatal line.
    setTimeout(() => process.exit(1), 100).unref();
  }
}

await main();

/** Settings that were set but are not applied as written, one warn line each (the setting, never a secret value). */
function logWarnings(logger: ReturnType<typeof createLogger>, warnings: readonly ConfigWarning[]): void {
  for (const { setting, message, plugin } of warnings) logger.warn({ setting, ...(plugin && { plugin }) }, message);
}
