import type * as v from 'valibot';
import type { Frozen, ValueParser, WithDefault } from '../../settings/kinds.js';
import type { FeatureId } from '../features.js';

export interface FieldSpec<K extends string = string, P extends ValueParser<unknown> = ValueParser<unknown>> {
  /**
   * Key in GatewayConfig and the config file; `group.name` puts it in its feature's group
   * (`config.jwt.issuer`, `{ "jwt": { "issuer": … } }`), named as that plugin's option.
   */
  readonly key: K;
  /** The flat file key it had before it moved into its group (`jwtIssuer`): still read, with a deprecation warning. */
  readonly formerKey?: string;
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
  /** No default of its own, but its group's rule always fills it in (ADR 052), so the config always has it. */
  readonly filledIn?: true;
}

/**
 * A group of settings, kept with their literal keys and parser types so the config's type is
 * derived from them (ConfigOf): the spec is the one place a setting's name, type and default live.
 */
export function defineFields<const F extends readonly FieldSpec<string, ValueParser<unknown>>[]>(fields: F): F {
  return fields;
}

type Always<S> = S extends { readonly parse: WithDefault<unknown> }
  ? true
  : S extends { filledIn: true }
    ? true
    : false;

/**
 * The configuration a group of field specs reads into: one readonly property per spec, typed by
 * its parser's output; required when the spec has a default (or is filled in), optional otherwise.
 */
export type FlatConfigOf<F extends readonly FieldSpec<string, ValueParser<unknown>>[]> = {
  readonly [S in F[number] as Always<S> extends true ? S['key'] : never]: Frozen<v.InferOutput<S['parse']>>;
} & {
  readonly [S in F[number] as Always<S> extends true ? never : S['key']]?: Frozen<v.InferOutput<S['parse']>>;
};

type GroupOf<K> = K extends `${infer G}.${string}` ? G : never;

/** `group.name` keys gathered into one object per group; other keys stay where they are (modifiers kept). */
export type Tree<T> = {
  readonly [K in keyof T as K extends `${string}.${string}` ? never : K]: T[K];
} & {
  readonly [G in GroupOf<keyof T>]: { readonly [K in keyof T as K extends `${G}.${infer N}` ? N : never]: T[K] };
};

/** The configuration tree a list of field specs reads into. */
export type ConfigOf<F extends readonly FieldSpec<string, ValueParser<unknown>>[]> = Tree<FlatConfigOf<F>>;

/**
 * The config while parseConfig fills it in: each group still open, so a group's rule can fill in a
 * setting from another (ADR 052). Lists and maps stay read-only.
 */
export type Open<C> = {
  -readonly [K in keyof C]: C[K] extends readonly unknown[]
    ? C[K]
    : C[K] extends object
      ? { -readonly [N in keyof C[K]]: C[K][N] }
      : C[K];
};
