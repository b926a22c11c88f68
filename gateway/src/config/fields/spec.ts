import type { ValueParser } from '../../settings/values.js';
import type { FeatureId } from '../features.js';
import type { GatewayConfig } from '../types.js';

export type ScalarKey = Exclude<keyof GatewayConfig, 'subgraphs'>;

export interface FieldSpec {
  /** Key in the config file (and in GatewayConfig). */
  key: ScalarKey;
  /** Environment variable; it wins over the file. */
  env: string;
  /**
   * Names it had before a rename: still read, with a deprecation warning, so a deployment that
   * copied this template keeps working on upgrade. Never reuse one for another setting.
   */
  formerEnv?: readonly string[];
  /** How its value is read, with its default when it has one (`withDefault`, ADR 023). */
  parse: ValueParser<unknown>;
  /** What it means, for the generated reference (docs/configuration.md). */
  meaning: string;
  /** The default as the reference shows it, where the parser's would read badly (`2mb`); a test checks it parses to it. */
  docDefault?: string;
  /** The feature it only tunes (a warning when set while that is off, ADR 016); absent: it always applies. */
  feature?: FeatureId;
}
