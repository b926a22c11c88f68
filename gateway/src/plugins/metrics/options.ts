import { asOptionsObject, checkKnownKeys, OptionIssues, optionalValue } from '../../plugin-sdk/index.js';
import { METRICS_VALUES } from './settings.js';

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
  const value = <K extends 'maxOperationNames' | 'operationNameMinCount' | 'defaultMetrics' | 'path'>(key: K) =>
    optionalValue(issues, raw, key, METRICS_VALUES[key] as never) as MetricsSettings[K];
  const settings = {
    maxOperationNames: value('maxOperationNames'),
    operationNameMinCount: value('operationNameMinCount'),
    defaultMetrics: value('defaultMetrics'),
    path: value('path'),
  };
  issues.check('port', raw.port, METRICS_VALUES.port);
  issues.throwIfAny(PLUGIN_NAME);
  return {
    ...settings,
    port: options.port,
  };
}
