import type { GatewayConfig, Logger } from '@fedgw/gateway';

/**
 * The memory store counts per process: with N workers a client whose requests are spread
 * over them gets up to N × RATE_LIMIT_MAX. Said once at startup, with the way out.
 */
export function warnIfRateLimitPerWorker(
  config: Pick<GatewayConfig, 'plugins' | 'rateLimit' | 'workers'>,
  logger: Logger,
): void {
  if (config.workers <= 1 || !config.plugins.includes('rate-limit') || config.rateLimit.redisUrl !== undefined) return;
  const effectiveMax = config.rateLimit.max * config.workers;
  logger.warn(
    { workers: config.workers, rateLimitMax: config.rateLimit.max, effectiveMax },
    `rate limit counted in memory per worker: a client may get up to ${config.workers}× RATE_LIMIT_MAX (${effectiveMax}) per window; set GATEWAY_REDIS_URL to count exactly across workers`,
  );
}
