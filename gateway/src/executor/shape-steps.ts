// What a shaper is compiled into: each field's type shape and the steps of each selection set.
import type { CompositeType, NamedType } from '@apollo/federation-internals';
import type { IfArgument } from './conditions.js';
import type { LeafCheck } from './leaf-check.js';

/** A field's type, unwrapped once: `[Review!]!` is nonNull(list(nonNull(composite))). */
export type TypeShape =
  | { readonly kind: 'nonNull'; readonly ofType: TypeShape; readonly ofTypeName: string }
  | { readonly kind: 'list'; readonly ofType: TypeShape; readonly name: string }
  | { readonly kind: 'composite'; readonly type: CompositeType; readonly name: string }
  | { readonly kind: 'leaf'; readonly check: LeafCheck; readonly name: string };

export interface FieldStep {
  readonly kind: 'field';
  readonly skip: IfArgument | undefined;
  readonly include: IfArgument | undefined;
  readonly responseName: string;
  readonly isTypename: boolean;
  readonly type: TypeShape;
  readonly selections: readonly Step[] | undefined;
}

export interface FragmentStep {
  readonly kind: 'fragment';
  readonly skip: IfArgument | undefined;
  readonly include: IfArgument | undefined;
  readonly typeCondition: CompositeType | undefined;
  /** isSubtype(typeCondition, runtime type), per runtime type seen. */
  readonly applies: Map<NamedType, boolean>;
  readonly selections: readonly Step[];
}

export type Step = FieldStep | FragmentStep;
