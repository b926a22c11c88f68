import type { CompositeType, Operation, SelectionSet, Type } from '@apollo/federation-internals';
import type { GraphQLError } from 'graphql';
import { ifArgumentsOf } from './conditions.js';
import { leafCheck } from './leaf-check.js';
import type { Step, TypeShape } from './shape-steps.js';
import { applySelections, NULL_BUBBLE_UP, newObject, TYPENAME, type Walk } from './shape-walk.js';

/**
 * Result shaping compiled once per cached plan: the same walk as @apollo/gateway's
 * `computeResponse` (resultShaping.js: same order of writes, same null propagation, same
 * errors and assertion messages, so answers are byte-identical), with every per-request
 * schema question answered at compile time: the operation's selections and their
 * @skip/@include arguments, each field's type shape and leaf check, each fragment's type
 * condition (memoized per runtime type). The stock executor re-derives all of it, and
 * rebuilds the operation from the document, for every request.
 */
export interface Shaper {
  /** `{ data, errors }`: what `computeResponse` returns for the merged subgraph answers. */
  shape(input: Record<string, unknown>, variables: Record<string, unknown> | undefined): Shaped;
}

export interface Shaped {
  readonly data: Record<string, unknown> | null;
  readonly errors: GraphQLError[];
}

const PROTO = '__proto__';

/**
 * Compiles `operation` (built with `operationFromDocument` from the plan's document, as the
 * stock executor does). Returns undefined when the operation selects introspection fields
 * (`__schema`, `__type`): those answers come from the stock executor.
 */
export function compileShaper(operation: Operation): Shaper | undefined {
  const schema = operation.schema();
  const compiled = new Map<SelectionSet, readonly Step[]>();
  let introspection = false;
  let protoName = false;

  const compileType = (type: Type): TypeShape => {
    switch (type.kind) {
      case 'NonNullType':
        return { kind: 'nonNull', ofType: compileType(type.ofType), ofTypeName: String(type.ofType) };
      case 'ListType':
        return { kind: 'list', ofType: compileType(type.ofType), name: String(type) };
      case 'ScalarType':
      case 'EnumType':
        return { kind: 'leaf', check: leafCheck(schema, type), name: String(type) };
      default:
        return { kind: 'composite', type: type as CompositeType, name: String(type) };
    }
  };

  const compileSet = (selectionSet: SelectionSet): readonly Step[] => {
    const known = compiled.get(selectionSet);
    if (known) return known;
    const steps: Step[] = [];
    for (const selection of selectionSet.selections()) {
      const { skip, include } = ifArgumentsOf(selection.element, schema);
      if (selection.kind === 'FieldSelection') {
        const field = selection.element;
        if (field.definition.isSchemaIntrospectionField()) introspection = true;
        if (field.responseName() === PROTO) protoName = true;
        steps.push({
          kind: 'field',
          skip,
          include,
          responseName: field.responseName(),
          isTypename: field.name === TYPENAME,
          type: compileType(field.definition.type as Type),
          selections: selection.selectionSet ? compileSet(selection.selectionSet) : undefined,
        });
      } else {
        steps.push({
          kind: 'fragment',
          skip,
          include,
          typeCondition: selection.element.typeCondition,
          applies: new Map(),
          selections: compileSet(selection.selectionSet),
        });
      }
    }
    compiled.set(selectionSet, steps);
    return steps;
  };

  const root = compileSet(operation.selectionSet);
  if (introspection) return undefined;
  const rootType = schema.schemaDefinition.rootType(operation.rootKind) as CompositeType;
  const defaulted = operation.collectDefaultedVariableValues();

  return {
    shape(input, variables) {
      const walk: Walk = {
        schema,
        plain: !protoName,
        variables: { __proto__: null, ...defaulted, ...variables },
        errors: [],
        invalid: false,
        hasErrors: false,
      };
      const data = newObject(walk);
      const result = applySelections(walk, input, root, data, [], rootType);
      return { data: result === NULL_BUBBLE_UP ? null : data, errors: walk.errors };
    },
  };
}
