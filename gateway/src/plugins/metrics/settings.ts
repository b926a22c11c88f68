// The METRICS_* settings' schemas and the rule across them (ADR 052). Pure: importing this
// loads no prom-client, so a gateway with metrics off never does.
import { boolean, type ConfigIssue, defaultsOf, integer, urlPath, withDefault } from '../../plugin-sdk/index.js';

/** The options' schemas and defaults, which METRICS_PORT, METRICS_MAX_OPERATION_NAMES… are read with too. */
export const METRICS_VALUES = Object.freeze({
  port: integer(0, 65_535),
  /** Node's process metrics (CPU, memory, event loop, GC) next to the gateway's. */
  defaultMetrics: withDefault(boolean, true),
  path: withDefault(urlPath, '/metrics'),
  /** Distinct operation names kept as label values; the rest fold into `__other`. */
  maxOperationNames: withDefault(integer(0, 10_000), 100),
  /** Validated, unrefused requests a name needs before it takes one of those label values. */
  operationNameMinCount: withDefault(integer(1, 1_000_000), 10),
});
export const METRICS_DEFAULTS = defaultsOf(METRICS_VALUES);

/** Paths the adapters already answer on the main listener. */
const PROBE_PATHS = ['/health', '/ready'];

/** What the `metrics` group's rule reads of the config: the group, and the main listener's port and path. */
interface MetricsRuleInput {
  readonly metrics: { readonly enabled: boolean; readonly port?: number; readonly path: string };
  readonly port: number;
  readonly graphqlPath: string;
}

/** The `metrics` group's rule (ADR 052), once every default is filled in; names each contradiction by its variable. */
export function checkMetricsConfig(config: MetricsRuleInput, issues: ConfigIssue[]): void {
  const { enabled, port: metricsPort, path: metricsPath } = config.metrics;
  const { port, graphqlPath } = config;
  // Set while metrics are off, METRICS_* are reported as warnings (config/features.ts).
  if (!enabled) return;
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    issues.push({
      field: 'METRICS_PORT',
      message: `must differ from GATEWAY_LISTEN_PORT (${port}): unset it to serve metrics on the main port`,
    });
  }
  // On its own listener only the metrics path is served, so nothing can collide there.
  if (metricsPort === undefined) {
    if (metricsPath === graphqlPath || PROBE_PATHS.includes(metricsPath)) {
      issues.push({ field: 'METRICS_PATH', message: `"${metricsPath}" is already served on the main port` });
    }
  }
}
