import { type Logger, pino } from 'pino';
import type { GatewayConfig } from './config/types.js';

export type { Logger };

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
export function createLogger(
  config: Pick<GatewayConfig, 'logLevel' | 'logPretty'>,
  destination?: NodeJS.WritableStream,
): Logger {
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
