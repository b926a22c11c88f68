// Filtering an operation before it is planned. Each refused field is replaced by `__typename`
// under the same response key (its arguments and sub-selection dropped, its @skip/@include
// kept): no subgraph is ever asked for it, the answer keeps the client's key order, and
// `response.ts` turns that key into null. Each refused fragment is replaced by a placeholder
// `__typename` under PLACEHOLDER_KEY, which the answer never shows: the fragment's fields are
// simply not there, as for a fragment that does not apply, and the other members of a union
// or interface keep their data.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  GraphQLNonNull,
  type GraphQLOutputType,
  type GraphQLSchema,
  GraphQLString,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { conditionOf, fieldType, fragmentsOf, type GuardedNode } from './guards.js';

export {
  deniedSelections,
  type GuardedNode,
  type GuardedSelection,
  guardsOf,
  NO_GUARDS,
  type OperationGuards,
} from './guards.js';

/** The response key standing where a refused fragment was (removed from every answer). */
export const PLACEHOLDER_KEY = '_authorizationRemoved';

/** Where the answer needs patching: by response key, down to the filtered fields. */
export interface PatchNode {
  readonly type: GraphQLOutputType;
  /** This key's field was filtered out: its value becomes null. */
  denied: boolean;
  /** This key is a refused fragment's placeholder: removed from the answer. */
  placeholder: boolean;
  /** Some occurrence of this key was not filtered (another field under the same key). */
  allowed: boolean;
  /**
   * Something this key selects is left once the refused selections are gone. A field left
   * with nothing is null too, without an error of its own (Apollo Router removes it).
   */
  left: boolean;
  readonly children: Map<string, PatchNode>;
}

/** How one variant of an operation changes the answer: data to patch, errors to report. */
export interface AnswerPatch {
  readonly tree: ReadonlyMap<string, PatchNode>;
  /** Each refused selection's path in the operation, as Apollo Router writes it. */
  readonly paths: readonly (readonly string[])[];
  /** Every field the operation selects is refused: the answer is `data: null`, nothing is run. */
  readonly nothingLeft: boolean;
}

const placeholderField = (): FieldNode => ({
  kind: Kind.FIELD,
  alias: { kind: Kind.NAME, value: PLACEHOLDER_KEY },
  name: { kind: Kind.NAME, value: '__typename' },
});

/** The operation with each denied field replaced by `__typename` under its key, each denied fragment by a placeholder. */
export function withoutDenied(document: DocumentNode, denied: ReadonlySet<GuardedNode>): DocumentNode {
  let removedSpread = false;
  const filtered = visit(document, {
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
    InlineFragment(node) {
      return denied.has(node) ? placeholderField() : undefined;
    },
    FragmentSpread(node) {
      if (!denied.has(node)) return undefined;
      removedSpread = true;
      return placeholderField();
    },
  });
  return removedSpread ? withoutUnusedFragments(filtered) : filtered;
}

/** Drops the fragment definitions no operation spreads any more (an unused fragment is invalid). */
function withoutUnusedFragments(document: DocumentNode): DocumentNode {
  const fragments = fragmentsOf(document);
  const used = new Set<string>();
  const mark = (node: OperationDefinitionNode | FragmentDefinitionNode) => {
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (used.has(name)) return;
        used.add(name);
        const fragment = fragments.get(name);
        if (fragment) mark(fragment);
      },
    });
  };
  for (const definition of document.definitions) if (definition.kind === Kind.OPERATION_DEFINITION) mark(definition);
  return {
    ...document,
    definitions: document.definitions.filter(
      (definition) => definition.kind !== Kind.FRAGMENT_DEFINITION || used.has(definition.name.value),
    ),
  };
}

const TYPENAME_TYPE = new GraphQLNonNull(GraphQLString);

/** The answer patch of `operation` when `denied` are refused (computed once per variant). */
export function answerPatch(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  denied: ReadonlySet<GuardedNode>,
): AnswerPatch {
  const root = schema.getRootType(operation.operation);
  if (!root) return { tree: new Map(), paths: [], nothingLeft: false };
  const builder = new PatchBuilder(schema, fragmentsOf(document), denied);
  const tree = new Map<string, PatchNode>();
  const left = builder.build(operation.selectionSet, root, tree, []);
  prune(tree);
  return { tree, paths: [...builder.paths.values()], nothingLeft: !left };
}

/** `into`'s node for a response key, made when first seen. */
function entry(into: Map<string, PatchNode>, key: string, type: GraphQLOutputType): PatchNode {
  let found = into.get(key);
  if (!found) {
    found = { type, denied: false, placeholder: false, allowed: false, left: false, children: new Map() };
    into.set(key, found);
  }
  return found;
}

/** One answerPatch's walk over the operation: the tree it builds into and the refused paths it reports. */
class PatchBuilder {
  readonly paths = new Map<string, string[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReturnType<typeof fragmentsOf>,
    private readonly denied: ReadonlySet<GuardedNode>,
  ) {}

  private report(path: string[]): void {
    const id = path.join('\u0000');
    if (!this.paths.has(id)) this.paths.set(id, path);
  }

  /**
   * Builds the tree of response keys and the query paths of the refused selections (Apollo
   * Router's: a field's name, never its alias; `@` after a list field; `... on T` for an inline
   * fragment; a named fragment's selections at the place it is spread). Returns whether any
   * field of `selectionSet` is left once the refused ones are gone (a selection set left
   * empty takes its field away, as in the Router).
   */
  build(
    selectionSet: SelectionSetNode,
    parent: GraphQLCompositeType,
    into: Map<string, PatchNode>,
    at: readonly string[],
  ): boolean {
    let left = false;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) left = this.buildField(selection, parent, into, at) || left;
      else left = this.buildFragment(selection, parent, into, at) || left;
    }
    return left;
  }

  private buildField(
    node: FieldNode,
    parent: GraphQLCompositeType,
    into: Map<string, PatchNode>,
    at: readonly string[],
  ): boolean {
    const name = node.name.value;
    const key = node.alias?.value ?? name;
    if (name.startsWith('__')) {
      if (name === '__typename') {
        const found = entry(into, key, TYPENAME_TYPE);
        found.allowed = true;
        found.left = true;
      }
      return true;
    }
    const type = fieldType(parent, name);
    if (!type) return false;
    const found = entry(into, key, type);
    const path = isListType(getNullableType(type)) ? [...at, name, '@'] : [...at, name];
    if (this.denied.has(node)) {
      found.denied = true;
      this.report(path);
      return false;
    }
    found.allowed = true;
    const named = getNamedType(type);
    const left =
      !node.selectionSet || !isCompositeType(named) || this.build(node.selectionSet, named, found.children, path);
    found.left ||= left;
    return left;
  }

  private buildFragment(
    node: Exclude<SelectionNode, FieldNode>,
    parent: GraphQLCompositeType,
    into: Map<string, PatchNode>,
    at: readonly string[],
  ): boolean {
    const inline = node.kind === Kind.INLINE_FRAGMENT;
    const fragment = inline ? node : this.fragments.get(node.name.value);
    if (!fragment) return false;
    const path = inline ? [...at, `... on ${node.typeCondition?.name.value ?? ''}`] : [...at];
    if (this.denied.has(node)) {
      entry(into, PLACEHOLDER_KEY, TYPENAME_TYPE).placeholder = true;
      this.report(path);
      return false;
    }
    const condition = conditionOf(this.schema, fragment, parent);
    return condition ? this.build(fragment.selectionSet, condition, into, path) : false;
  }
}

/** Drops branches with nothing to patch below them; returns whether any is left. */
function prune(tree: Map<string, PatchNode>): boolean {
  for (const [key, node] of tree) {
    const below = prune(node.children);
    if (!node.denied && !node.placeholder && node.left && !below) tree.delete(key);
  }
  return tree.size > 0;
}

/** A response key used by a denied field (or a placeholder) and by another field: the answer could not tell them apart. */
export function hasAmbiguousKey(tree: ReadonlyMap<string, PatchNode>): boolean {
  for (const node of tree.values()) {
    if ((node.denied || node.placeholder) && node.allowed) return true;
    if (hasAmbiguousKey(node.children)) return true;
  }
  return false;
}
