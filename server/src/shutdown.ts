import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@fedgw/gateway';
import type { RunningGateway } from './serve.js';
import { onStopSignals } from './stop-signals.js';

export interface ShutdownOptions {
  /** Time for in-flight requests to finish once the listener closes. */
  graceMs: number;
  /** Time between `/ready` turning 503 and the listener closing. */
  delayMs: number;
  exit?: (code: number) => void;
}

/**
 * On SIGTERM, SIGINT or SIGHUP: `/ready` turns 503, wait `delayMs` for load balancers to notice,
 * stop accepting connections, let in-flight requests finish, exit 0. If they are not
 * done within `graceMs`, exit 1. A second SIGINT (Ctrl-C) exits at once (stop-signals.ts).
 */
export function installShutdown(running: RunningGateway, logger: Logger, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const shutdown = async (signal: NodeJS.Signals) => {
    logger.info({ signal, delayMs: options.delayMs, graceMs: options.graceMs }, 'shutting down');
    running.gateway.beginDrain();
    await sleep(options.delayMs);
    const deadline = sleep(options.graceMs, 'timeout' as const, { ref: false });
    const outcome = await Promise.race([running.close().then(() => 'closed' as const), deadline]).catch(
      (error: unknown) => {
        logger.error({ err: error }, 'error while shutting down');
        return 'failed' as const;
      },
    );
    if (outcome === 'closed') {
      logger.info('shutdown complete');
      exit(0);
    } else {
      // What it waited for: the listener's open sockets and their requests, or the gateway's stop.
      const closing = running.closing?.() ?? { open: running.openConnections?.() };
      logger.error({ outcome, ...closing }, 'in-flight requests did not finish within the grace period');
      exit(1);
    }
  };
  onStopSignals({
    stop: (signal) => void shutdown(signal),
    force: (signal) => {
      logger.warn({ signal }, 'second SIGINT: exiting now');
      exit(1);
    },
  });
}
