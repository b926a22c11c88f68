import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@fedgw/gateway';
import type { RunningGateway } from './serve.js';

export interface ShutdownOptions {
  /** Time for in-flight requests to finish once the listener closes. */
  graceMs: number;
  /** Time between `/ready` turning 503 and the listener closing. */
  delayMs: number;
  exit?: (code: number) => void;
}

/**
 * On SIGTERM/SIGINT: `/ready` turns 503, wait `delayMs` for load balancers to notice,
 * stop accepting connections, let in-flight requests finish, exit 0. If they are not
 * done within `graceMs`, exit 1. A second SIGINT (Ctrl-C) exits at once.
 */
export function installShutdown(running: RunningGateway, logger: Logger, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;
  let sigints = 0;
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
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT') sigints += 1;
    if (shuttingDown) {
      // Process managers often deliver SIGTERM twice (to the group and to the child), and one
      // Ctrl-C arrives as SIGINT from the terminal and SIGTERM from `pnpm start`'s launcher, in
      // either order: only a second SIGINT (a second Ctrl-C) means "stop waiting".
      if (sigints > 1) {
        logger.warn({ signal }, 'second SIGINT: exiting now');
        exit(1);
      }
      return;
    }
    shuttingDown = true;
    void shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
