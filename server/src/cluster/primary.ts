import cluster, { type Worker } from 'node:cluster';
import type { GatewayConfig, Logger } from '@fedgw/gateway';
import { isStopSignal, onStopSignals } from '../stop-signals.js';
import { clusterReady, isWorkerReady } from './messages.js';
import { warnIfRateLimitPerWorker } from './rate-limit-warning.js';
import { RestartBackoff } from './restart-backoff.js';

/** After SIGTERM, how long past the workers' own delay + grace the primary waits before SIGKILL. */
const STOP_MARGIN_MS = 5_000;

export interface PrimaryOptions {
  exit?: (code: number) => void;
}

/**
 * The cluster primary (GATEWAY_WORKERS > 1): serves nothing itself. It forks the workers
 * (each runs the whole gateway, as a single process would), tells them when all of them are
 * ready (and when one died), replaces a dead worker after a backoff, and on SIGTERM/SIGINT/SIGHUP
 * has every worker run its own graceful shutdown: exit 0 when all ended cleanly, 1 if any
 * failed or had to be killed. A worker that dies before the cluster was first ready fails
 * the whole start (exit 1), as a single process would.
 */
export function runPrimary(config: GatewayConfig, logger: Logger, options: PrimaryOptions = {}): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const count = config.workers;
  const backoff = new RestartBackoff();
  const readySince = new Map<Worker, number>();
  // Our own list: cluster.workers drops a worker only once both its exit and its IPC disconnect happened.
  const workers = new Set<Worker>();
  const restarts = new Set<NodeJS.Timeout>();
  let everReady = false;
  let allReady = false;
  let stopping = false;
  let failed = false;

  const broadcast = (ready: boolean) => {
    allReady = ready;
    // A worker exiting meanwhile (a signal reached it first) fails the send with EPIPE: with a
    // callback that is its error, not an unhandled 'error' event that ends the primary.
    for (const worker of workers) if (worker.isConnected()) worker.send(clusterReady(ready), () => {});
  };

  const fork = () => {
    const worker = cluster.fork();
    workers.add(worker);
    logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker started');
    worker.on('message', (message: unknown) => {
      if (!isWorkerReady(message) || stopping) return;
      readySince.set(worker, Date.now());
      logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker ready');
      if (readySince.size === count && !allReady) {
        everReady = true;
        broadcast(true);
        logger.info({ workers: count, pids: [...workers].map((w) => w.process.pid) }, 'cluster ready');
      }
    });
  };

  const stopped = () => {
    logger.info({ exitCode: failed ? 1 : 0 }, 'cluster stopped');
    exit(failed ? 1 : 0);
  };

  const stop = (signal: NodeJS.Signals | undefined) => {
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    logger.info({ signal, workers: workers.size }, 'cluster shutting down');
    // Every worker dead, their replacements cancelled above: nothing to wait for.
    if (workers.size === 0) return stopped();
    for (const worker of workers) worker.process.kill('SIGTERM');
    // The workers bound their own drain; this only catches a worker that is wedged.
    setTimeout(
      () => {
        for (const worker of workers) {
          logger.error({ worker: worker.id, pid: worker.process.pid }, 'worker did not stop: killing it');
          worker.process.kill('SIGKILL');
        }
      },
      config.shutdown.delayMs + config.shutdown.graceMs + STOP_MARGIN_MS,
    ).unref();
  };

  cluster.on('exit', (worker, code, signal) => {
    const since = readySince.get(worker);
    readySince.delete(worker);
    workers.delete(worker);
    const facts = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      // A worker still starting has no shutdown of its own yet: the stop signal ends it there,
      // with nothing in flight. That is the stop asked for, not a failure (once started, a
      // worker handles these signals and ends with its own exit code).
      const clean = code === 0 || isStopSignal(signal);
      if (!clean) failed = true;
      logger[clean ? 'info' : 'error'](facts, 'worker stopped');
      if (workers.size === 0) stopped();
      return;
    }
    logger.error(facts, 'worker died');
    if (!everReady) {
      logger.fatal(facts, 'a worker died before the cluster was ready: stopping');
      failed = true;
      stop(undefined);
      return;
    }
    if (allReady) broadcast(false);
    const delayMs = backoff.next(since === undefined ? undefined : Date.now() - since);
    logger.info({ delayMs }, 'replacing the dead worker');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delayMs);
    restarts.add(timer);
  });

  onStopSignals({
    stop,
    force: (signal) => {
      logger.warn({ signal }, 'second SIGINT: killing the workers');
      for (const worker of workers) worker.process.kill('SIGKILL');
      exit(1);
    },
  });

  logger.info({ workers: count }, 'cluster primary starting workers');
  warnIfRateLimitPerWorker(config, logger);
  for (let i = 0; i < count; i += 1) fork();
}
