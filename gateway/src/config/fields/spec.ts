import type * as v from 'valibot';
import type { ValueParser, WithDefault } from '../../settings/values.js';
import type { FeatureId } from '../features.js';

export interface FieldSpec<K extends string = string, P extends ValueParser<unknown> = ValueParser<unknown>> {
  /** Key in the config file and in GatewayConfig. */
  readonly key: K;
  /** Environment variable; it wins over the file. */
  readonly env: string;
  /**
   * Names it had before a rename: still read, with a deprecation warning, so a deployment that
   * copied this template keeps working on upgrade. Never reuse one for another setting.
   */
  readonly formerEnv?: readonly string[];
  /** How its value is read, with its default when it has one (`withDefault`, ADR 023); its output is the config's type. */
  readonly parse: P;
  /** What it means, for the generated reference (docs/configuration.md). */
  readonly meaning: string;
  /** The default as the reference shows it, where the parser's would read badly (`2mb`); a test checks it parses to it. */
  readonly docDefault?: string;
  /** The feature it only tunes (a warning when set while that is off, ADR 016); absent: it always applies. */
  readonly feature?: FeatureId;
  /** No default of its own, but a rule in checks.ts always fills it in, so the config always has it. */
  readonly filledIn?: true;
}

/**
 * A group of settings, kept with their literal keys and parser types so the config's type is
 * derived from them (ConfigOf): the spec is the one place a setting's name, type and default live.
 */
export function defineFields<const F extends readonly FieldSpec<string, ValueParser<unknown>>[]>(fields: F): F {
  return fields;
}

/** Parsed lists and maps are shared by every reader of the config: typed read-only. */
type Frozen<T> = T extends readonly (infer U)[] ? readonly U[] : T extends object ? Readonly<T> : T;

type Always<S> = S extends { readonly parse: WithDefault<unknown> }
  ? true
  : S extends { filledIn: true }
    ? true
    : false;

/**
 * The configuration a group of field specs reads into: one readonly property per spec, typed by
 * its parser's output; required when the spec has a default (or is filled in), optional otherwise.
 */
export type ConfigOf<F extends readonly FieldSpec<string, ValueParser<unknown>>[]> = {
  readonly [S in F[number] as Always<S> extends true ? S['key'] : never]: Frozen<v.InferOutput<S['parse']>>;
} & {
  readonly [S in F[number] as Always<S> extends true ? never : S['key']]?: Frozen<v.InferOutput<S['parse']>>;
};
