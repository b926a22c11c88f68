import type { Logger } from '@fedgw/gateway';

/** Time for a pretty-print worker thread to write the fatal line before the process exits. */
const FLUSH_MS = 100;

/**
 * An exception nothing caught, or a promise rejection nobody handled (Node raises it as an
 * uncaught exception, `origin: 'unhandledRejection'`), leaves one `fatal` log line with the
 * error and its origin, then exits 1 as Node would have: the process state is unknown, and a
 * supervisor (Kubernetes, systemd) restarts it. Without this, the only trace was a stack on
 * stderr, outside the JSON log a collector reads.
 */
export function logFatalAndExit(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  let exiting = false;
  process.on('uncaughtException', (error, origin) => {
    if (exiting) return;
    exiting = true;
    logger.fatal({ err: error, origin }, 'uncaught exception: exiting');
    logger.flush?.();
    process.exitCode = 1;
    setTimeout(() => exit(1), FLUSH_MS);
  });
}
