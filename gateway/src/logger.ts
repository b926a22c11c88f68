import { createRequire } from 'node:module';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { type Logger, pino } from 'pino';
import { stdoutDestination } from './log-destination.js';
import { boolean, byteSize, oneOf, type SettingsOf, withDefault } from './settings/kinds.js';

export type { Logger };
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const MAX_QUEUED_BYTES = 16 * 1024 ** 2;

/** The `log` group's schemas (GATEWAY_LOG_LEVEL, GATEWAY_LOG_PRETTY, GATEWAY_LOG_BUFFER_BYTES, GATEWAY_LOG_MAX_QUEUED_BYTES), which the config parses it with. */
export const LOG_VALUES = Object.freeze({
  level: withDefault(oneOf(LOG_LEVELS), 'info'),
  pretty: withDefault(boolean, false, { development: true }),
  // Below sonic-boom's largest single write (16 KiB), which it requires of a buffer.
  bufferBytes: withDefault(byteSize(0, 16_000), 4096),
  // Its floor is above the buffer's ceiling, so the cap always exceeds the buffer with room
  // for long lines (an error's stack); no 0, which would be unbounded again (ADR 047).
  maxQueuedBytes: withDefault(byteSize(64 * 1024, 1024 ** 3), MAX_QUEUED_BYTES),
});

/** At most this long between a line's logging and its write, when lines are buffered. */
export const LOG_FLUSH_MS = 100;

/**
 * What the logger reads of the configuration (a GatewayConfig is one): its `log` group (no
 * buffer when `bufferBytes` is absent, the default cap when `maxQueuedBytes` is).
 */
export interface LoggerSettings {
  readonly log: Omit<SettingsOf<typeof LOG_VALUES>, 'bufferBytes' | 'maxQueuedBytes'> & {
    readonly bufferBytes?: number;
    readonly maxQueuedBytes?: number;
  };
}

/** Header values that must never reach a log line, wherever they are nested. */
export const REDACTED_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["x-api-key"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  '*.headers["x-api-key"]',
];

const NO_TRACE = Object.freeze({});

/**
 * The active span's ids on each line written inside a traced request, under the names of
 * OpenTelemetry's log correlation (`trace_id`, `span_id`, `trace_flags`), so a line joins its
 * trace. Without tracing no span is ever active: one look at an empty context per line.
 */
function traceFields(): object {
  const span = trace.getSpan(context.active());
  if (!span) return NO_TRACE;
  const ids = span.spanContext();
  if (!isSpanContextValid(ids)) return NO_TRACE;
  return { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: ids.traceFlags.toString(16).padStart(2, '0') };
}

/**
 * JSON lines in production; pretty output only when asked for (development default) and
 * pino-pretty is installed. It is a development dependency, absent from the production image:
 * there GATEWAY_LOG_PRETTY=true writes JSON lines and says so once, instead of failing to start.
 */
export function createLogger(
  config: LoggerSettings,
  destination?: NodeJS.WritableStream,
  prettyInstalled: () => boolean = canResolvePinoPretty,
): Logger {
  const pretty = config.log.pretty && !destination && prettyInstalled();
  const options = {
    level: config.log.level,
    base: { service: 'gateway' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: traceFields,
    // pino's own strategy writes the line's fields into the mixin's object: the shared empty one must stay empty.
    mixinMergeStrategy: (fields: object, trace: object) => (trace === NO_TRACE ? fields : Object.assign(trace, fields)),
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  };
  const logger = pino(options, (destination as pino.DestinationStream | undefined) ?? stdoutFor(config, pretty));
  if (config.log.pretty && !destination && !pretty) {
    logger.warn(
      { setting: 'GATEWAY_LOG_PRETTY' },
      'pino-pretty is not installed (a development dependency): writing JSON lines',
    );
  }
  return logger;
}

/**
 * Standard output, as pino writes it by default (sonic-boom, asynchronous), but with lines
 * gathered up to GATEWAY_LOG_BUFFER_BYTES and written at least every LOG_FLUSH_MS: one write
 * per request log line was a twentieth of the gateway's CPU under load (ADR 046). pino writes
 * what is buffered synchronously when the process exits, the fatal line's exit included.
 * What waits for a stalled reader is capped at GATEWAY_LOG_MAX_QUEUED_BYTES (ADR 047).
 */
function stdoutFor(config: LoggerSettings, pretty: boolean): pino.DestinationStream | undefined {
  if (pretty) return undefined;
  return stdoutDestination({
    bufferBytes: config.log.bufferBytes ?? 0,
    maxQueuedBytes: config.log.maxQueuedBytes ?? MAX_QUEUED_BYTES,
    flushMs: LOG_FLUSH_MS,
  });
}

function canResolvePinoPretty(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
