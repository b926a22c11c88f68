import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger.js';

export interface CapturedLogger {
  logger: Logger;
  /** Every JSON line written, parsed. */
  lines: Record<string, unknown>[];
  /** Every line as written (to check what the JSON holds twice, say). */
  raw: string[];
}

/** A real pino logger whose lines the test reads. */
export function captureLogger(level: 'debug' | 'warn' = 'debug'): CapturedLogger {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return { logger: createLogger({ logLevel: level, logPretty: false }, stream), lines, raw };
}
