import {
  boolean,
  byteSize,
  type Clock,
  custom,
  duration,
  type GatewayPlugin,
  httpUrl,
  integer,
  isHeaderName,
  type Logger,
  list,
  nonEmpty,
  share,
  withDefault,
} from '../../plugin-sdk/index.js';
import type { ShadowTarget } from './target.js';

export const PLUGIN_NAME = 'shadow';

/** A response path as differences are named: response keys joined by `.`, list positions left out. */
const responsePath = custom<string>('a response path (`topProducts.reviews`)', (raw) =>
  typeof raw === 'string' && /^[_A-Za-z][_0-9A-Za-z]*(\.[_A-Za-z][_0-9A-Za-z]*)*$/.test(raw.trim())
    ? { ok: true, value: raw.trim() }
    : { ok: false, message: 'expected a response path such as `topProducts.reviews`' },
);

const forwardedHeader = custom<string>('a header name', (raw) =>
  typeof raw === 'string' && isHeaderName(raw.trim())
    ? { ok: true, value: raw.trim().toLowerCase() }
    : { ok: false, message: 'expected a header name' },
);

/**
 * The options' schemas, range and default written once: the SHADOW_* settings are read with the
 * same schemas (config/settings/shadow.ts), so a variable and its option accept the same values.
 */
export const SHADOW_VALUES = Object.freeze({
  url: httpUrl,
  supergraph: nonEmpty,
  sample: withDefault(share(0, 1), 0.01),
  timeoutMs: withDefault(duration(10, 60_000), 2000),
  maxConcurrency: withDefault(integer(1, 1000), 8),
  maxResponseBytes: withDefault(byteSize(1024, 64 * 1024 ** 2), 1024 ** 2),
  forwardHeaders: withDefault(list(forwardedHeader), []),
  logValues: withDefault(boolean, false),
  unorderedPaths: withDefault(list(responsePath), []),
  ignorePaths: withDefault(list(responsePath), []),
});

export interface ShadowOptions {
  /** Where mirrored queries go: a GraphQL endpoint (`url`) or a candidate supergraph run in-process. */
  readonly targets: readonly ShadowTarget[];
  /** The fraction of queries mirrored, 0 to 1. Default: 0.01. */
  readonly sample?: number;
  /** A shadow answering later than this is a `shadow_error`. Default: 2 s. */
  readonly timeoutMs?: number;
  /** Shadows in flight at once; one more is `dropped`. Default: 8. */
  readonly maxConcurrency?: number;
  /** A shadow answer larger than this stops being read: a `shadow_error`. Default: 1 MiB. */
  readonly maxResponseBytes?: number;
  /** Client request headers sent on to a URL shadow (lower case). Default: none. */
  readonly forwardHeaders?: readonly string[];
  /** Log the two differing values, not only their paths. Default: false (they may be personal data). */
  readonly logValues?: boolean;
  /** Paths whose lists are compared in any order. */
  readonly unorderedPaths?: readonly string[];
  /** Paths left out of the comparison (a timestamp, a random id). */
  readonly ignorePaths?: readonly string[];
  /** The sampling draw, in [0, 1). Default: Math.random; tests pass their own. */
  readonly random?: () => number;
  /** What times the shadow out. */
  readonly clock: Clock;
  readonly logger: Logger;
  /** Every plugin of the gateway, once built: the outcomes go to their `onEvent` (metrics). */
  readonly plugins: () => readonly GatewayPlugin[];
}
