import { type Logger, pino } from 'pino';

export type { Logger };
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerSettings {
  readonly logLevel: LogLevel;
  readonly logPretty: boolean;
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

/** JSON lines in production; pretty output only when asked for (development default). */
export function createLogger(config: LoggerSettings, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'gateway' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(config.logPretty && !destination
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  };
  return destination ? pino(options, destination as pino.DestinationStream) : pino(options);
}
