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
  const primary = new ClusterPrimary(config, logger, exit);

  cluster.on('exit', (worker, code, signal) => primary.workerExited(worker, code, signal));

  onStopSignals({
    stop: (signal) => primary.stop(signal),
    force: (signal) => primary.kill(signal),
  });

  logger.info({ workers: count }, 'cluster primary starting workers');
  warnIfRateLimitPerWorker(config, logger);
  for (let i = 0; i < count; i += 1) primary.fork();
}

/** The primary's workers and its state: forking, readiness, replacing a dead worker, stopping. */
class ClusterPrimary {
  private readonly count: number;
  private readonly backoff = new RestartBackoff();
  private readonly readySince = new Map<Worker, number>();
  // Our own list: cluster.workers drops a worker only once both its exit and its IPC disconnect happened.
  private readonly workers = new Set<Worker>();
  private readonly restarts = new Set<NodeJS.Timeout>();
  private everReady = false;
  private allReady = false;
  private stopping = false;
  private failed = false;

  constructor(
    private readonly config: GatewayConfig,
    private readonly logger: Logger,
    private readonly exit: (code: number) => void,
  ) {
    this.count = config.workers;
  }

  private broadcast(ready: boolean): void {
    this.allReady = ready;
    // A worker exiting meanwhile (a signal reached it first) fails the send with EPIPE: with a
    // callback that is its error, not an unhandled 'error' event that ends the primary.
    for (const worker of this.workers) if (worker.isConnected()) worker.send(clusterReady(ready), () => {});
  }

  fork(): void {
    const { logger, count } = this;
    const worker = cluster.fork();
    this.workers.add(worker);
    logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker started');
    worker.on('message', (message: unknown) => {
      if (!isWorkerReady(message) || this.stopping) return;
      this.readySince.set(worker, Date.now());
      logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker ready');
      if (this.readySince.size === count && !this.allReady) {
        this.everReady = true;
        this.broadcast(true);
        logger.info({ workers: count, pids: [...this.workers].map((w) => w.process.pid) }, 'cluster ready');
      }
    });
  }

  private stopped(): void {
    this.logger.info({ exitCode: this.failed ? 1 : 0 }, 'cluster stopped');
    this.exit(this.failed ? 1 : 0);
  }

  stop(signal: NodeJS.Signals | undefined): void {
    const { logger, workers, config } = this;
    this.stopping = true;
    for (const timer of this.restarts) clearTimeout(timer);
    this.restarts.clear();
    logger.info({ signal, workers: workers.size }, 'cluster shutting down');
    // Every worker dead, their replacements cancelled above: nothing to wait for.
    if (workers.size === 0) {
      this.stopped();
      return;
    }
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
  }

  /** A second SIGINT: every worker killed at once. */
  kill(signal: NodeJS.Signals): void {
    this.logger.warn({ signal }, 'second SIGINT: killing the workers');
    for (const worker of this.workers) worker.process.kill('SIGKILL');
    this.exit(1);
  }

  workerExited(worker: Worker, code: number, signal: string): void {
    const { logger } = this;
    const since = this.readySince.get(worker);
    this.readySince.delete(worker);
    this.workers.delete(worker);
    const facts = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (this.stopping) {
      // A worker still starting has no shutdown of its own yet: the stop signal ends it there,
      // with nothing in flight. That is the stop asked for, not a failure (once started, a
      // worker handles these signals and ends with its own exit code).
      const clean = code === 0 || isStopSignal(signal);
      if (!clean) this.failed = true;
      logger[clean ? 'info' : 'error'](facts, 'worker stopped');
      if (this.workers.size === 0) this.stopped();
      return;
    }
    logger.error(facts, 'worker died');
    if (!this.everReady) {
      logger.fatal(facts, 'a worker died before the cluster was ready: stopping');
      this.failed = true;
      this.stop(undefined);
      return;
    }
    if (this.allReady) this.broadcast(false);
    const delayMs = this.backoff.next(since === undefined ? undefined : Date.now() - since);
    logger.info({ delayMs }, 'replacing the dead worker');
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      this.fork();
    }, delayMs);
    this.restarts.add(timer);
  }
}
