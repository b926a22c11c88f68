import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { CostDirectives, FieldCost } from './cost-directives.js';

export interface CostInputs {
  readonly schema: GraphQLSchema;
  readonly directives: CostDirectives;
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
 */
export function estimateCost(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  inputs: CostInputs,
): number {
  const root = inputs.schema.getRootType(operation.operation);
  if (!root) return 0;
  const base = operation.operation === 'mutation' ? MUTATION_BASE_COST : 0;
  const cost = base + new CostWalk(fragments, inputs).selectionSet(operation.selectionSet, root, undefined);
  return Number.isFinite(cost) ? cost : Number.MAX_VALUE;
}

/** One walk over an operation; named fragments are costed once per type and size context. */
class CostWalk {
  readonly #memo = new Map<string, number>();
  constructor(
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly inputs: CostInputs,
  ) {}

  /** `sized`: the size a parent's `@listSize(sizedFields:)` gives some of these fields. */
  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType, sized: Sized | undefined): number {
    let total = 0;
    for (const selection of set.selections) {
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

  /** A slicing argument's value (the largest given), else the declared or default size. */
  #sizeOf(node: FieldNode, field: GraphQLField<unknown, unknown>, declared: FieldCost | undefined): number {
    let size: number | undefined;
    for (const name of declared?.slicingArguments ?? []) {
      const value = this.#argumentValue(node, field, name);
      if (typeof value === 'number' && Number.isFinite(value)) size = Math.max(size ?? 0, value);
    }
    return Math.max(0, size ?? declared?.assumedSize ?? this.inputs.defaultListSize);
  }

  #argumentValue(node: FieldNode, field: GraphQLField<unknown, unknown>, name: string): unknown {
    const given = node.arguments?.find((arg) => arg.name.value === name)?.value;
    if (given) return this.#value(given);
    return field.args.find((arg) => arg.name === name)?.defaultValue;
  }

  #value(node: ValueNode): unknown {
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value);
    if (node.kind === Kind.VARIABLE) return this.inputs.variables[node.name.value];
    return undefined;
  }

  #typeOf(name: string | undefined, fallback: GraphQLCompositeType): GraphQLCompositeType {
    const type: GraphQLNamedType | undefined = name ? this.inputs.schema.getType(name) : undefined;
    return type && isCompositeType(type) ? type : fallback;
  }
}

interface Sized {
  readonly fields: readonly string[];
  readonly size: number;
}
