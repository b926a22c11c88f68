import {
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLCompositeType,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLNamedType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  type InlineFragmentNode,
  isCompositeType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { CostDirectives, FieldCost } from './cost-directives.js';

export interface CostInputs {
  readonly schema: GraphQLSchema;
  readonly directives: CostDirectives;
  /** The variables as the client sent them; coerced here, with the operation's defaults filled in. */
  readonly variables: Readonly<Record<string, unknown>>;
  /** Size assumed for a list field that declares none (`@listSize`) and has no slicing argument. */
  readonly defaultListSize: number;
}

/** Mutations start at 10, as in Apollo Router's demand control: they usually write. */
const MUTATION_BASE_COST = 10;

/**
 * The static cost of an operation, computed from its document and the schema before it is
 * planned, following the IBM GraphQL cost specification as Apollo Router applies it:
 * a field of an object, interface or union type costs 1 (its `@cost` weight if declared),
 * a scalar or enum field 0; a list field multiplies the cost of one item by its size
 * (a slicing argument's value such as `first`, else `@listSize(assumedSize:)`, else the
 * default list size). Fragments are all counted, so for abstract types this is an upper
 * bound. The document must be valid against the schema (Apollo Server validated it).
 *
 * Arguments are read as execution will see them: variables coerced against the operation's
 * definitions (a variable's default counts when the client sends none), the schema's
 * argument defaults, and `@skip`/`@include` decided by those variables. A client cannot
 * hide a size behind a default.
 */
export function estimateCost(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  inputs: CostInputs,
): number {
  const root = inputs.schema.getRootType(operation.operation);
  if (!root) return 0;
  const base = operation.operation === 'mutation' ? MUTATION_BASE_COST : 0;
  const variables = coerceVariables(operation, inputs);
  const cost = base + new CostWalk(fragments, inputs, variables).selectionSet(operation.selectionSet, root, undefined);
  return Number.isFinite(cost) ? cost : Number.MAX_VALUE;
}

/** One walk over an operation; named fragments are costed once per type and size context. */
class CostWalk {
  readonly #memo = new Map<string, number>();
  constructor(
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly inputs: CostInputs,
    private readonly variables: Record<string, unknown>,
  ) {}

  /** `sized`: the size a parent's `@listSize(sizedFields:)` gives some of these fields. */
  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType, sized: Sized | undefined): number {
    let total = 0;
    for (const selection of set.selections) {
      if (!this.#included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        total += this.#field(selection, parent, sized);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += this.selectionSet(
          selection.selectionSet,
          this.#typeOf(selection.typeCondition?.name.value, parent),
          sized,
        );
      } else {
        const name = selection.name.value;
        const key = `${name}|${parent.name}|${sized ? `${sized.fields.join(',')}:${sized.size}` : ''}`;
        let cost = this.#memo.get(key);
        if (cost === undefined) {
          const fragment = this.fragments.get(name);
          cost = fragment
            ? this.selectionSet(fragment.selectionSet, this.#typeOf(fragment.typeCondition.name.value, parent), sized)
            : 0;
          this.#memo.set(key, cost);
        }
        total += cost;
      }
    }
    return total;
  }

  #field(node: FieldNode, parent: GraphQLCompositeType, sized: Sized | undefined): number {
    if (node.name.value.startsWith('__') || !('getFields' in parent)) return 0;
    const field = parent.getFields()[node.name.value];
    if (!field) return 0;
    const type = getNamedType(field.type);
    const declared = this.inputs.directives.fields.get(`${parent.name}.${field.name}`);
    const weight = declared?.weight ?? this.inputs.directives.types.get(type.name) ?? (isCompositeType(type) ? 1 : 0);
    const size = this.#sizeOf(node, field, declared);
    const children =
      node.selectionSet && isCompositeType(type)
        ? this.selectionSet(
            node.selectionSet,
            type,
            declared?.sizedFields ? { fields: declared.sizedFields, size } : undefined,
          )
        : 0;
    if (!isListType(getNullableType(field.type))) return weight + children;
    // A connection's `edges` take their size from the parent's slicing argument.
    const items = sized?.fields.includes(field.name) ? sized.size : size;
    return items * (weight + children);
  }

  /**
   * A slicing argument's value (the largest given), else the declared or default size.
   * A slicing argument that is null (sent as null, or a variable without value or default)
   * leaves the size to the resolver, which usually applies its own default: the schema's
   * default for that argument then counts too, whichever is larger.
   */
  #sizeOf(node: FieldNode, field: GraphQLField<unknown, unknown>, declared: FieldCost | undefined): number {
    const fallback = declared?.assumedSize ?? this.inputs.defaultListSize;
    const slicing = declared?.slicingArguments ?? [];
    if (slicing.length === 0) return Math.max(0, fallback);
    const values = this.#argumentValues(node, field);
    let size: number | undefined;
    let unset = fallback;
    for (const name of slicing) {
      const value = values[name];
      if (typeof value === 'number') size = Math.max(size ?? 0, value);
      const schemaDefault = field.args.find((arg) => arg.name === name)?.defaultValue;
      if (typeof schemaDefault === 'number') unset = Math.max(unset, schemaDefault);
    }
    return Math.max(0, size ?? unset);
  }

  /** The field's arguments as the resolver receives them (literals, variables, defaults). */
  #argumentValues(node: FieldNode, field: GraphQLField<unknown, unknown>): Record<string, unknown> {
    try {
      return getArgumentValues(field, node, this.variables);
    } catch {
      // Invalid arguments fail validation or execution before any resolver runs.
      return {};
    }
  }

  /** `@skip(if:)` and `@include(if:)` as the executor decides them; kept when undecidable. */
  #included(node: FieldNode | FragmentSpreadNode | InlineFragmentNode): boolean {
    try {
      if (getDirectiveValues(GraphQLSkipDirective, node, this.variables)?.if === true) return false;
      return getDirectiveValues(GraphQLIncludeDirective, node, this.variables)?.if !== false;
    } catch {
      return true;
    }
  }

  #typeOf(name: string | undefined, fallback: GraphQLCompositeType): GraphQLCompositeType {
    const type: GraphQLNamedType | undefined = name ? this.inputs.schema.getType(name) : undefined;
    return type && isCompositeType(type) ? type : fallback;
  }
}

/**
 * The variables as the executor will see them (the gateway refuses the request when they do
 * not coerce, so the raw values then only decide a figure nobody runs).
 */
function coerceVariables(operation: OperationDefinitionNode, inputs: CostInputs): Record<string, unknown> {
  const { coerced } = getVariableValues(inputs.schema, operation.variableDefinitions ?? [], inputs.variables);
  return coerced ?? { ...inputs.variables };
}

interface Sized {
  readonly fields: readonly string[];
  readonly size: number;
}
