import { pino } from 'pino';
import { LogThrottle } from './log-throttle.js';

// Standard output as the gateway writes its log lines, with what waits for it capped (ADR 047).

/** Lines dropped in this process because standard output was not taking them (gateway_log_lines_dropped_total). */
let dropped = 0;
/** A warning when dropping starts, then at most one a minute while it lasts. */
const warnings = new LogThrottle(1, 60_000);
/** Beyond this much waiting on stderr, it is not being read either: the warning is skipped. */
const STDERR_BACKLOG_BYTES = 64 * 1024;

export function droppedLogLines(): number {
  return dropped;
}

export interface StdoutSettings {
  /** sonic-boom's `minLength`: lines gathered before a write (0: each line written at once). */
  readonly bufferBytes: number;
  /** sonic-boom's `maxLength`: bytes held for standard output, the write in flight included. */
  readonly maxQueuedBytes: number;
  readonly flushMs: number;
}

/**
 * pino's asynchronous sonic-boom on standard output. When the reader stalls (a stuck log
 * collector, a full pipe), sonic-boom keeps every line in memory until it can write it; past
 * `maxQueuedBytes` it drops the line being logged (a whole line: pino writes one per call)
 * and emits `drop`. Nothing waits, so a stalled reader never stalls a request.
 */
export function stdoutDestination({ bufferBytes, maxQueuedBytes, flushMs }: StdoutSettings): pino.DestinationStream {
  const stream = pino.destination({
    dest: process.stdout.fd ?? 1,
    minLength: bufferBytes,
    maxLength: maxQueuedBytes,
    ...(bufferBytes > 0 && { periodicFlush: flushMs }),
  });
  // The dropped line may hold client data: it is counted, never written anywhere.
  stream.on('drop', () => onDrop(maxQueuedBytes));
  return stream;
}

function onDrop(maxQueuedBytes: number): void {
  dropped++;
  const before = warnings.take();
  if (before === undefined || process.stderr.writableLength > STDERR_BACKLOG_BYTES) return;
  // Standard error, in the log's own JSON shape: the logger is what cannot write.
  const line = {
    level: 40,
    time: Date.now(),
    service: 'gateway',
    setting: 'GATEWAY_LOG_MAX_QUEUED_BYTES',
    maxQueuedBytes,
    droppedSinceLastWarning: before + 1,
    droppedTotal: dropped,
    msg: 'standard output is not taking log lines: dropping them (counted in gateway_log_lines_dropped_total)',
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
