import { asOptionsObject, checkKnownKeys, OptionIssues } from '../../settings/plugin-options.js';
import { METRICS_DEFAULTS, METRICS_VALUES } from './config.js';

export const PLUGIN_NAME = 'metrics';

export interface MetricsOptions {
  /**
   * Distinct operation names kept as label values (the first ones seen); later names are
   * counted as `__other`, so clients cannot grow the series without bound. 0 keeps none.
   * Default: 100.
   */
  maxOperationNames?: number;
  /**
   * Times an operation name must be seen, in requests that were validated and not refused,
   * before it takes one of those label values (until then it is counted as `__other`), so
   * names a client sends once cannot take the slots. Default: 10.
   */
  operationNameMinCount?: number;
  /** prom-client's default process metrics (CPU, RSS, heap, GC, event-loop lag). Default: true. */
  defaultMetrics?: boolean;
  /** Where the metrics are served. Default: `/metrics`. */
  path?: string;
  /** Set: served only by a listener of their own on this port (the server opens it). Default: unset. */
  port?: number;
}

export interface MetricsSettings {
  readonly maxOperationNames: number;
  readonly operationNameMinCount: number;
  readonly defaultMetrics: boolean;
  readonly path: string;
  readonly port: number | undefined;
}

const KNOWN = [
  'maxOperationNames',
  'operationNameMinCount',
  'defaultMetrics',
  'path',
  'port',
] as const satisfies readonly (keyof MetricsOptions)[];

/** Checks every option, throwing one error that names each bad one. */
export function checkOptions(options: MetricsOptions): MetricsSettings {
  const raw = asOptionsObject(PLUGIN_NAME, options);
  const issues = new OptionIssues();
  checkKnownKeys(issues, raw, KNOWN);
  issues.check('maxOperationNames', raw.maxOperationNames, METRICS_VALUES.maxOperationNames);
  issues.check('operationNameMinCount', raw.operationNameMinCount, METRICS_VALUES.operationNameMinCount);
  issues.check('port', raw.port, METRICS_VALUES.port);
  if (raw.defaultMetrics !== undefined && typeof raw.defaultMetrics !== 'boolean') {
    issues.add('defaultMetrics', 'must be a boolean');
  }
  issues.check('path', raw.path, METRICS_VALUES.path);
  issues.throwIfAny(PLUGIN_NAME);
  return {
    maxOperationNames: options.maxOperationNames ?? METRICS_DEFAULTS.maxOperationNames,
    operationNameMinCount: options.operationNameMinCount ?? METRICS_DEFAULTS.operationNameMinCount,
    defaultMetrics: options.defaultMetrics ?? true,
    path: options.path ?? METRICS_DEFAULTS.path,
    port: options.port,
  };
}
