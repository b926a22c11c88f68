// Prometheus metrics with prom-client: a GatewayPlugin that observes Apollo's request
// pipeline and the gateway's events, on a registry of its own (never prom-client's global
// one, so two gateways in one process do not collide). Imported only when METRICS_ENABLED.
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { GatewayPlugin, MetricsEndpoint } from '../../plugin-sdk/index.js';
import { eventMetrics } from './event-metrics.js';
import { httpMetrics } from './http-metrics.js';
import { checkOptions, type MetricsOptions, PLUGIN_NAME } from './options.js';
import { requestMetrics } from './request-metrics.js';
import { createSeries } from './series.js';

export { ANONYMOUS, OTHER, UNRESOLVED } from './operation-names.js';
export type { MetricsOptions } from './options.js';
export { METRICS_DEFAULTS } from './settings.js';

export interface MetricsPlugin extends GatewayPlugin {
  readonly registry: Registry;
  /** What the adapters (or the METRICS_PORT listener) serve. */
  readonly endpoint: MetricsEndpoint;
}

export function metrics(options: MetricsOptions = {}): MetricsPlugin {
  const settings = checkOptions(options);
  const registry = new Registry();
  if (settings.defaultMetrics) collectDefaultMetrics({ register: registry });
  const series = createSeries(registry);
  return {
    name: PLUGIN_NAME,
    registry,
    apollo: requestMetrics(series, settings.maxOperationNames, settings.operationNameMinCount),
    onEvent: eventMetrics(series),
    endpoint: {
      path: settings.path,
      ...(settings.port !== undefined && { port: settings.port }),
      scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
      recordHttpRequest: httpMetrics(series),
    },
  };
}
