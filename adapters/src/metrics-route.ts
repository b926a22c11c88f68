import type { MetricsEndpoint, MountableGateway } from '@fedgw/gateway/contract';

/**
 * The metrics the main listener serves: none when they are off, or when METRICS_PORT gives
 * them a listener of their own (so they are not public).
 */
export function mainListenerMetrics(gateway: Pick<MountableGateway, 'metrics'>): MetricsEndpoint | undefined {
  const { metrics } = gateway;
  return metrics && metrics.port === undefined ? metrics : undefined;
}
