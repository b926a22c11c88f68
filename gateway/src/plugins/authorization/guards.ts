// What one operation needs to be seen, found once per parsed document: each field, inline
// fragment and fragment spread the supergraph's directives guard, with what it requires. The
// rules are Apollo Router's (apollo-router/src/plugins/authorization), written here again:
// - a field needs its own directives and those of the type it returns (for a list, its items);
// - a fragment (inline or named) on a restricted type needs that type's: refusing it removes
//   only that fragment, so a union or interface field keeps its other members;
// - a field returning an interface, selected with a field of the interface itself (not only
//   `__typename` or fragments), needs what every implementation needs: its items could be any;
// - a field read through an interface needs what the same field needs in every implementation.
// Stricter than the Router (docs/authorization.md says why): a field read through an interface
// also needs what each implementing type needs, and a field of a restricted type needs it.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  type InlineFragmentNode,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
} from 'graphql';
import { meets, type Rights } from './rights.js';
import type { AuthorizationRules, Requirement } from './rules.js';

/** A selection that may be refused: a field, or a fragment (which is then removed whole). */
export type GuardedNode = FieldNode | InlineFragmentNode | FragmentSpreadNode;

export interface GuardedSelection {
  readonly node: GuardedNode;
  readonly requirements: readonly Requirement[];
}

/** What one operation needs, found once per parsed document. */
export interface OperationGuards {
  readonly selections: readonly GuardedSelection[];
  /** The policy names those selections use: what the policy decider is asked about. */
  readonly policies: ReadonlySet<string>;
}

export const NO_GUARDS: OperationGuards = { selections: [], policies: new Set() };

export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/** The type a fragment applies to: its type condition, or (without one) the enclosing type. */
export function conditionOf(
  schema: GraphQLSchema,
  fragment: InlineFragmentNode | FragmentDefinitionNode,
  parent: GraphQLCompositeType,
): GraphQLCompositeType | undefined {
  if (!fragment.typeCondition) return parent;
  const type = typeFromAST(schema, fragment.typeCondition);
  return type && isCompositeType(type) ? type : undefined;
}

/** A field's type in an object or interface (a union has no fields but `__typename`). */
export function fieldType(parent: GraphQLCompositeType, name: string): GraphQLOutputType | undefined {
  return isUnionType(parent) ? undefined : parent.getFields()[name]?.type;
}

class RequirementsReader {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rules: AuthorizationRules,
  ) {}

  ofType(type: GraphQLNamedType): readonly Requirement[] {
    return this.rules.types.get(type.name) ?? [];
  }

  /** The field's directives and its returned type's, in one type (the Router's rule). */
  private ofFieldIn(parent: GraphQLCompositeType, name: string): Requirement[] {
    const type = fieldType(parent, name);
    return [
      ...(this.rules.fields.get(`${parent.name}.${name}`) ?? []),
      ...(type ? this.ofType(getNamedType(type)) : []),
    ];
  }

  ofField(parent: GraphQLCompositeType, node: FieldNode): Requirement[] {
    const name = node.name.value;
    const found = [...this.ofFieldIn(parent, name), ...this.ofType(parent)];
    if (isAbstractType(parent)) {
      for (const object of this.schema.getPossibleTypes(parent)) {
        found.push(...this.ofFieldIn(object, name), ...this.ofType(object));
      }
    }
    const type = fieldType(parent, name);
    const named = type && getNamedType(type);
    if (named && isInterfaceType(named) && selectsOwnField(node.selectionSet)) {
      for (const object of this.schema.getPossibleTypes(named)) found.push(...this.ofType(object));
    }
    return found;
  }
}

/** Whether a selection set reads a field itself, not only `__typename` and fragments. */
function selectsOwnField(selectionSet: SelectionSetNode | undefined): boolean {
  return (
    selectionSet?.selections.some(
      (selection) => selection.kind === Kind.FIELD && selection.name.value !== '__typename',
    ) ?? false
  );
}

/** The guarded selections of one operation (none for most operations: the fast path). */
export function guardsOf(
  schema: GraphQLSchema,
  rules: AuthorizationRules,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): OperationGuards {
  const root = schema.getRootType(operation.operation);
  if (!root) return NO_GUARDS;
  const reader = new RequirementsReader(schema, rules);
  const fragments = fragmentsOf(document);
  const selections: GuardedSelection[] = [];
  const seen = new Set<GuardedNode>();
  const guard = (node: GuardedNode, requirements: readonly Requirement[]) => {
    if (requirements.length > 0 && !seen.has(node)) selections.push({ node, requirements });
    seen.add(node);
  };
  // Fragments are followed once per spread (a fragment spread inside itself is invalid, so this ends).
  const visit = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        const type = fieldType(parent, selection.name.value);
        if (!type) continue;
        guard(selection, reader.ofField(parent, selection));
        const named = getNamedType(type);
        if (selection.selectionSet && isCompositeType(named)) visit(selection.selectionSet, named);
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      if (!fragment) continue;
      const condition = conditionOf(schema, fragment, parent);
      if (!condition) continue;
      if (fragment.typeCondition) guard(selection, reader.ofType(condition));
      visit(fragment.selectionSet, condition);
    }
  };
  visit(operation.selectionSet, root);
  return selections.length === 0 ? NO_GUARDS : { selections, policies: policiesOf(selections) };
}

function policiesOf(selections: readonly GuardedSelection[]): Set<string> {
  const needed = new Set<string>();
  for (const { requirements } of selections) {
    for (const requirement of requirements) {
      if (requirement.kind !== 'policy') continue;
      for (const all of requirement.anyOf) for (const policy of all) needed.add(policy);
    }
  }
  return needed;
}

/**
 * The guarded selections `rights` do not meet every requirement of, and their positions in
 * `guards` (which, with the operation, name the filtered variant and its query plan).
 */
export function deniedSelections(guards: OperationGuards, rights: Rights): { denied: GuardedNode[]; indices: string } {
  const denied: GuardedNode[] = [];
  const indices: number[] = [];
  guards.selections.forEach(({ node, requirements }, index) => {
    if (!requirements.every((requirement) => meets(requirement, rights))) {
      denied.push(node);
      indices.push(index);
    }
  });
  return { denied, indices: indices.join(',') };
}
