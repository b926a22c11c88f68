// Filtering an operation before it is planned: each field the request may not see is replaced
// by `__typename` under the same response key (its arguments and sub-selection dropped, its
// @skip/@include kept). No subgraph is ever asked for it, the answer keeps the client's key
// order, and the planner plans what is left; `response.ts` then turns those keys into null.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isCompositeType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
  visit,
} from 'graphql';
import { meets, type Rights } from './rights.js';
import type { AuthorizationRules, Requirement } from './rules.js';

/** A field of the operation that needs something to be seen. */
export interface GuardedField {
  readonly node: FieldNode;
  readonly requirements: readonly Requirement[];
}

/** Where the answer needs patching: by response key, down to the filtered fields. */
export interface PatchNode {
  readonly type: GraphQLOutputType;
  /** This key's field was filtered out: its value becomes null (and its error is added). */
  denied: boolean;
  /** Some occurrence of this key was not filtered (another field under the same key). */
  allowed: boolean;
  readonly children: Map<string, PatchNode>;
}

/** What one operation needs, found once per parsed document. */
export interface OperationGuards {
  readonly fields: readonly GuardedField[];
  /** The policy names those fields use: what the policy decider is asked about. */
  readonly policies: ReadonlySet<string>;
}

export const NO_GUARDS: OperationGuards = { fields: [], policies: new Set() };

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/**
 * Walks every selection of `operation` with its parent type, fragments followed once per
 * spread (a fragment spread inside itself is invalid, so this ends).
 */
function walk(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  onField: (node: FieldNode, parent: GraphQLCompositeType, type: GraphQLOutputType | undefined) => boolean,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name.startsWith('__')) continue;
      const type = 'getFields' in parent ? parent.getFields()[name]?.type : undefined;
      const descend = onField(selection, parent, type);
      const named = type && getNamedType(type);
      if (descend && selection.selectionSet && named && isCompositeType(named)) {
        walk(schema, selection.selectionSet, named, fragments, onField);
      }
      continue;
    }
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
    if (!fragment) continue;
    const condition = fragment.typeCondition ? typeFromAST(schema, fragment.typeCondition) : parent;
    if (condition && isCompositeType(condition)) walk(schema, fragment.selectionSet, condition, fragments, onField);
  }
}

/** What seeing `field` of `parent` requires: the field's rules, its type's and its parent's. */
function requirementsOf(
  schema: GraphQLSchema,
  rules: AuthorizationRules,
  parent: GraphQLCompositeType,
  name: string,
  type: GraphQLOutputType,
): Requirement[] {
  const found = [
    ...(rules.fields.get(`${parent.name}.${name}`) ?? []),
    ...(rules.types.get(parent.name) ?? []),
    ...(rules.types.get(getNamedType(type).name) ?? []),
  ];
  // A field returning an interface or union is guarded by every type it may return, as Apollo
  // Router does (one restricted implementation restricts the field).
  const named = getNamedType(type);
  if (isAbstractType(named)) {
    for (const object of schema.getPossibleTypes(named)) found.push(...(rules.types.get(object.name) ?? []));
  }
  // Through an interface, a field is guarded as strictly as in any type that implements it:
  // otherwise `... on Node { email }` would read what `User.email` guards.
  if (isAbstractType(parent)) {
    for (const object of schema.getPossibleTypes(parent)) {
      found.push(...(rules.fields.get(`${object.name}.${name}`) ?? []), ...(rules.types.get(object.name) ?? []));
    }
  }
  return found;
}

/** The guarded fields of one operation (empty for most operations: the fast path). */
export function guardsOf(
  schema: GraphQLSchema,
  rules: AuthorizationRules,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): OperationGuards {
  const root = schema.getRootType(operation.operation);
  if (!root) return NO_GUARDS;
  const fields: GuardedField[] = [];
  const seen = new Set<FieldNode>();
  walk(schema, operation.selectionSet, root, fragmentsOf(document), (node, parent, type) => {
    if (!type) return false;
    const requirements = requirementsOf(schema, rules, parent, node.name.value, type);
    if (requirements.length > 0 && !seen.has(node)) {
      seen.add(node);
      fields.push({ node, requirements });
    }
    return true;
  });
  return fields.length === 0 ? NO_GUARDS : { fields, policies: policiesOf(fields) };
}

function policiesOf(fields: readonly GuardedField[]): Set<string> {
  const needed = new Set<string>();
  for (const { requirements } of fields) {
    for (const requirement of requirements) {
      if (requirement.kind !== 'policy') continue;
      for (const all of requirement.anyOf) for (const policy of all) needed.add(policy);
    }
  }
  return needed;
}

/**
 * The guarded fields `rights` do not meet every requirement of, and their positions in
 * `guards` (which, with the operation, name the filtered variant and its query plan).
 */
export function deniedFields(guards: OperationGuards, rights: Rights): { denied: FieldNode[]; indices: string } {
  const denied: FieldNode[] = [];
  const indices: number[] = [];
  guards.fields.forEach(({ node, requirements }, index) => {
    if (!requirements.every((requirement) => meets(requirement, rights))) {
      denied.push(node);
      indices.push(index);
    }
  });
  return { denied, indices: indices.join(',') };
}

/** The operation with each denied field replaced by `__typename` under its response key. */
export function withoutDenied(document: DocumentNode, denied: ReadonlySet<FieldNode>): DocumentNode {
  return visit(document, {
    Field(node) {
      if (!denied.has(node)) return undefined;
      return {
        ...node,
        alias: node.alias ?? { kind: Kind.NAME, value: node.name.value },
        name: { kind: Kind.NAME, value: '__typename' },
        arguments: [],
        selectionSet: undefined,
      } satisfies FieldNode;
    },
  });
}

/** The response keys leading to denied fields, with their types (for null propagation). */
export function patchTree(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  denied: ReadonlySet<FieldNode>,
): Map<string, PatchNode> {
  const root = schema.getRootType(operation.operation);
  const tree = new Map<string, PatchNode>();
  if (!root) return tree;
  const fragments = fragmentsOf(document);
  // Builds the full tree of keys, then keeps only the branches that reach a denied field.
  const build = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, into: Map<string, PatchNode>) => {
    walk(schema, selectionSet, parent, fragments, (node, _parent, type) => {
      if (!type) return false;
      const key = node.alias?.value ?? node.name.value;
      let entry = into.get(key);
      if (!entry) {
        entry = { type, denied: false, allowed: false, children: new Map() };
        into.set(key, entry);
      }
      if (denied.has(node)) {
        entry.denied = true;
        return false;
      }
      entry.allowed = true;
      const named = getNamedType(type);
      if (node.selectionSet && isCompositeType(named)) build(node.selectionSet, named, entry.children);
      return false;
    });
  };
  build(operation.selectionSet, root, tree);
  prune(tree);
  return tree;
}

/** Drops branches without a denied field below them; returns whether any is left. */
function prune(tree: Map<string, PatchNode>): boolean {
  for (const [key, node] of tree) {
    const below = prune(node.children);
    if (!node.denied && !below) tree.delete(key);
  }
  return tree.size > 0;
}

/** A response key used by a denied field and by another field: the answer could not tell them apart. */
export function hasAmbiguousKey(tree: ReadonlyMap<string, PatchNode>): boolean {
  for (const node of tree.values()) {
    if (node.denied && node.allowed) return true;
    if (hasAmbiguousKey(node.children)) return true;
  }
  return false;
}
