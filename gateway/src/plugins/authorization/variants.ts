// Per-document caches of what the authorization plugin computes for an operation: its guards
// (which selections need which rights) and its variants (the operation as a request with a
// given denied set may run it). A new supergraph empties both.
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { ResolvedRequest } from '../../plugin-sdk/index.js';
import {
  type AnswerPatch,
  answerPatch,
  type GuardedNode,
  guardsOf,
  hasAmbiguousKey,
  NO_GUARDS,
  type OperationGuards,
  withoutDenied,
} from './operation.js';
import type { AuthorizationRules } from './rules.js';

/** The operation as this request may run it: cached per document, operation and denied set. */
export interface Variant {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly patch: AnswerPatch;
  /** Part of the plan cache key: requests with other rights never share a plan. */
  readonly key: string;
  /** A response key names a denied field and another one: the answer could not tell them apart. */
  readonly ambiguous: boolean;
}

/** Variants kept per operation: each distinct set of denied selections is one. */
const MAX_VARIANTS = 32;

/** The guards and variants of the operations seen since the last supergraph. */
export class OperationVariants {
  private guardsByDocument = new WeakMap<DocumentNode, Map<string, OperationGuards>>();
  private variantsByDocument = new WeakMap<DocumentNode, Map<string, Variant>>();

  /** Forgets every operation (a new supergraph has other rules). */
  reset(): void {
    this.guardsByDocument = new WeakMap();
    this.variantsByDocument = new WeakMap();
  }

  guardsFor(request: ResolvedRequest, rules: AuthorizationRules): OperationGuards {
    const { document, operation, schema } = request;
    const name = operation?.name?.value ?? '';
    let byName = this.guardsByDocument.get(document);
    if (!byName) {
      byName = new Map<string, OperationGuards>();
      this.guardsByDocument.set(document, byName);
    }
    const known = byName.get(name);
    if (known || !operation) return known ?? NO_GUARDS;
    const guards = guardsOf(schema, rules, document, operation);
    byName.set(name, guards);
    return guards;
  }

  variantFor(request: ResolvedRequest, denied: readonly GuardedNode[], indices: string): Variant {
    const { document, operation, schema } = request;
    let byKey = this.variantsByDocument.get(document);
    if (!byKey) {
      byKey = new Map<string, Variant>();
      this.variantsByDocument.set(document, byKey);
    }
    const key = `${operation?.name?.value ?? ''}:${indices}`;
    const known = byKey.get(key);
    if (known) return known;
    const deniedSet = new Set(denied);
    const filtered = withoutDenied(document, deniedSet);
    const name = operation?.name?.value;
    const filteredOperation = filtered.definitions.find(
      (definition): definition is OperationDefinitionNode =>
        definition.kind === 'OperationDefinition' && definition.name?.value === name,
    ) as OperationDefinitionNode;
    const patch = answerPatch(schema, document, operation as OperationDefinitionNode, deniedSet);
    const variant: Variant = {
      document: filtered,
      operation: filteredOperation,
      patch,
      key: `authz:${indices}`,
      ambiguous: hasAmbiguousKey(patch.tree),
    };
    if (byKey.size < MAX_VARIANTS) byKey.set(key, variant);
    return variant;
  }
}
