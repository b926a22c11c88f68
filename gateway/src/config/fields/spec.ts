import type { ValueParser } from '../../settings/values.js';
import type { FeatureId } from '../features.js';
import type { GatewayConfig } from '../types.js';

export type ScalarKey = Exclude<keyof GatewayConfig, 'subgraphs'>;

export interface FieldSpec {
  /** Key in the config file (and in GatewayConfig). */
  key: ScalarKey;
  /** Environment variable; it wins over the file. */
  env: string;
  parse: ValueParser<unknown>;
  /** Default, which may depend on `env` (production vs development). */
  fallback: (partial: { env: GatewayConfig['env'] }) => unknown;
  /** What it means, for the generated reference (docs/configuration.md). */
  meaning: string;
  /** The default as the reference shows it, where the parser's would read badly (`2mb`); a test checks it parses to it. */
  docDefault?: string;
  /** The feature it only tunes (a warning when set while that is off, ADR 016); absent: it always applies. */
  feature?: FeatureId;
}

export const isDev = (c: { env: GatewayConfig['env'] }) => c.env === 'development';
export const none = () => undefined;
