import { captureLines } from '@fedgw/test-support';
import { createLogger, type Logger } from '../../src/logger.js';

export type CapturedLogger = ReturnType<typeof captureLines> & { logger: Logger };

/** The gateway's own pino logger (redaction included), whose lines the test reads. */
export function captureLogger(level: 'debug' | 'warn' = 'debug'): CapturedLogger {
  const captured = captureLines();
  return { ...captured, logger: createLogger({ log: { level, pretty: false } }, captured.stream) };
}
