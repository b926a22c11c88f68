// The walk a compiled shaper runs over the merged subgraph answers (resultShaping.js's
// `applySelections` and `updateOutputValue`, step by step), following the steps compiled in shape.ts.
import {
  assert,
  type CompositeType,
  ERRORS,
  isCompositeType,
  isObjectType,
  isSubtype,
  type Schema,
} from '@apollo/federation-internals';
import type { GraphQLError } from 'graphql';
import { shouldSkip } from './conditions.js';
import type { FragmentStep, Step, TypeShape } from './shape-steps.js';

type ShapeOf<K extends TypeShape['kind']> = Extract<TypeShape, { kind: K }>;

/**
 * An output object. computeResponse makes `Object.create(null)`, which V8 keeps in dictionary
 * mode (several times the bytes of a plain object with the same fields); the answer is the same
 * JSON either way. Plain objects need own-property reads (applySelections) and no `__proto__`
 * key, which would set the prototype instead: an operation with that response name keeps null-prototype objects.
 */
export function newObject(walk: Walk): Record<string, unknown> {
  return walk.plain ? {} : Object.create(null);
}

/**
 * `assert`'s failure (the same Error and message). The checks below call it in an `if` rather
 * than pass `assert` a message closure: a closure capturing locals makes V8 allocate a context
 * for every call of the function that creates it, on every field of every answer (issue 31:
 * most of what shaping allocated).
 */
function fail(message: string): never {
  throw new Error(message);
}

export const NULL_BUBBLE_UP = 1;
const OK = 0;
export const TYPENAME = '__typename';

/** Flags the last `updateOutputValue` call left (its `isInvalid` / `hasErrors`), read right after it returns. */
export interface Walk {
  readonly schema: Schema;
  /** Output objects are plain objects (see `newObject`); false when a response name is `__proto__`. */
  readonly plain: boolean;
  readonly variables: Record<string, unknown>;
  readonly errors: GraphQLError[];
  invalid: boolean;
  hasErrors: boolean;
}

export function applySelections(
  walk: Walk,
  input: Record<string, unknown>,
  steps: readonly Step[],
  output: Record<string, unknown>,
  path: (string | number)[],
  parentType: CompositeType,
): number {
  for (const step of steps) {
    if (shouldSkip(step.skip, step.include, walk.variables)) continue;
    if (step.kind === 'field') {
      const { responseName } = step;
      // Own properties only: on a plain object, `toString` or `constructor` (valid aliases) are inherited.
      const outputValue = Object.hasOwn(output, responseName) ? output[responseName] : undefined;
      let inputValue = Object.hasOwn(input, responseName) ? (input[responseName] ?? null) : null;
      if (step.isTypename) {
        if (outputValue === undefined) {
          if (inputValue === null && responseName !== TYPENAME) inputValue = input[TYPENAME] ?? null;
          const type =
            inputValue !== null && typeof inputValue === 'string'
              ? (walk.schema.type(inputValue) ?? parentType)
              : parentType;
          if (!isObjectType(type)) return NULL_BUBBLE_UP;
          output[responseName] = type.name;
        }
        continue;
      }
      path.push(responseName);
      const updated = updateOutputValue(walk, outputValue, step.type, inputValue, step.selections, path, parentType);
      output[responseName] = updated;
      path.pop();
      if (walk.invalid) return NULL_BUBBLE_UP;
    } else {
      const typename = input[TYPENAME];
      if (typename && typeof typename !== 'string') fail(`Got unexpected value for __typename: ${typename}`);
      if (typeConditionApplies(walk.schema, step, typename as string | undefined, parentType)) {
        const result = applySelections(walk, input, step.selections, output, path, step.typeCondition ?? parentType);
        if (result === NULL_BUBBLE_UP) return NULL_BUBBLE_UP;
      }
    }
  }
  return OK;
}

function typeConditionApplies(
  schema: Schema,
  step: FragmentStep,
  typename: string | undefined,
  parentType: CompositeType,
): boolean {
  const { typeCondition } = step;
  if (!typeCondition) return true;
  const runtime = typename ? schema.type(typename) : parentType;
  if (!runtime) return false;
  let applies = step.applies.get(runtime);
  if (applies === undefined) {
    applies = isSubtype(typeCondition, runtime);
    step.applies.set(runtime, applies);
  }
  return applies;
}

function describeLast(path: readonly (string | number)[], currentType: string, parentType: CompositeType): string {
  const element = path[path.length - 1];
  assert(element !== undefined, 'Should not have been called on an empty path');
  return typeof element === 'string'
    ? `field ${parentType}.${element}`
    : `array element of type ${currentType} at index ${element}`;
}

/** resultShaping.js's `updateOutputValue`; its `{ isInvalid, hasErrors }` are left in `walk`. */
function updateOutputValue(
  walk: Walk,
  outputValue: unknown,
  type: TypeShape,
  inputValue: unknown,
  selections: readonly Step[] | undefined,
  path: (string | number)[],
  parentType: CompositeType,
): unknown {
  walk.invalid = false;
  walk.hasErrors = false;
  assert(inputValue !== undefined, 'Should not pass undefined for `inputValue` to this method');
  if (outputValue === null || (outputValue !== undefined && !selections)) return outputValue;
  if (type.kind === 'nonNull') return nonNullValue(walk, outputValue, type, inputValue, selections, path, parentType);
  if (inputValue === null) return null;
  if (type.kind === 'list') return listValue(walk, outputValue, type, inputValue, selections, path, parentType);
  if (type.kind === 'composite') {
    return compositeValue(walk, outputValue, type, inputValue, selections, path, parentType);
  }
  return leafValue(walk, outputValue, type, inputValue, path, parentType);
}

/** A non-null type's value: null (with its error, unless one below was reported) makes the parent invalid. */
function nonNullValue(
  walk: Walk,
  outputValue: unknown,
  type: ShapeOf<'nonNull'>,
  inputValue: unknown,
  selections: readonly Step[] | undefined,
  path: (string | number)[],
  parentType: CompositeType,
): unknown {
  const updated = updateOutputValue(walk, outputValue, type.ofType, inputValue, selections, path, parentType);
  if (updated === null) {
    if (!walk.hasErrors) {
      walk.errors.push(
        ERRORS.INVALID_GRAPHQL.err(
          `Cannot return null for non-nullable ${describeLast(path, type.ofTypeName, parentType)}.`,
          { path: Array.from(path) },
        ),
      );
    }
    walk.invalid = true;
    walk.hasErrors = true;
    return updated;
  }
  walk.invalid = false;
  walk.hasErrors = false;
  return updated;
}

/** A list's value: each element shaped; an invalid element nulls the list. */
function listValue(
  walk: Walk,
  outputValue: unknown,
  type: ShapeOf<'list'>,
  inputValue: unknown,
  selections: readonly Step[] | undefined,
  path: (string | number)[],
  parentType: CompositeType,
): unknown {
  if (!Array.isArray(inputValue)) {
    fail(`Invalid non-list value ${inputValue} returned by subgraph for list type ${type.name}`);
  }
  if (outputValue !== undefined && !Array.isArray(outputValue)) {
    fail(`Invalid non-list value ${outputValue} returned by subgraph for list type ${type.name}`);
  }
  // No list yet: every element's output is undefined (computeResponse fills a throwaway array with them).
  const outputList = outputValue as unknown[] | undefined;
  if (outputList !== undefined && inputValue.length !== outputList.length) {
    fail(`[${inputValue}].length (${inputValue.length}) !== [${outputList}].length (${outputList?.length})`);
  }
  let nullify = false;
  let hasErrors = false;
  const length = inputValue.length;
  const updated = new Array(length);
  for (let index = 0; index < length; index++) {
    path.push(index);
    updated[index] = updateOutputValue(
      walk,
      outputList?.[index],
      type.ofType,
      inputValue[index],
      selections,
      path,
      parentType,
    );
    path.pop();
    nullify ||= walk.invalid;
    hasErrors ||= walk.hasErrors;
  }
  walk.invalid = false;
  walk.hasErrors = hasErrors;
  return nullify ? null : updated;
}

/** An object's value: its runtime type from `__typename`, then its selections applied. */
function compositeValue(
  walk: Walk,
  outputValue: unknown,
  type: ShapeOf<'composite'>,
  inputValue: unknown,
  selections: readonly Step[] | undefined,
  path: (string | number)[],
  parentType: CompositeType,
): unknown {
  if (!selections) fail(`Invalid empty selection set for composite type ${type.name}`);
  if (typeof inputValue !== 'object') {
    fail(`Invalid non-object value ${inputValue} returned by subgraph for composite type ${type.name}`);
  }
  if (outputValue !== undefined && typeof outputValue !== 'object') {
    fail(`Invalid non-object value ${inputValue} returned by subgraph for composite type ${type.name}`);
  }
  const object = inputValue as Record<string, unknown>;
  const inputTypename = object[TYPENAME];
  if (inputTypename !== undefined && typeof inputTypename !== 'string') {
    fail(`Invalid non-string value ${inputTypename} for __typename at ${path}`);
  }
  let objectType = type.type;
  if (inputTypename) {
    const named = walk.schema.type(inputTypename);
    if (!named || !isCompositeType(named)) {
      walk.errors.push(
        ERRORS.INVALID_GRAPHQL.err(
          `Invalid __typename found for object at ${describeLast(path, type.name, parentType)}.`,
          { path: Array.from(path) },
        ),
      );
      walk.invalid = false;
      walk.hasErrors = true;
      return null;
    }
    objectType = named;
  }
  const output = (outputValue ?? newObject(walk)) as Record<string, unknown>;
  const result = applySelections(walk, object, selections, output, path, objectType);
  walk.invalid = false;
  walk.hasErrors = result === NULL_BUBBLE_UP;
  return walk.hasErrors ? null : output;
}

/** A scalar's or an enum's value: kept when its leaf check passes, else null with an error. */
function leafValue(
  walk: Walk,
  outputValue: unknown,
  type: ShapeOf<'leaf'>,
  inputValue: unknown,
  path: (string | number)[],
  parentType: CompositeType,
): unknown {
  if (outputValue !== undefined) fail(`Excepted output to be undefined but got ${type.name} for type ${type.name}`);
  const valid = type.check(inputValue);
  if (!valid) {
    walk.errors.push(
      ERRORS.INVALID_GRAPHQL.err(`Invalid value found for ${describeLast(path, type.name, parentType)}.`, {
        path: Array.from(path),
      }),
    );
  }
  walk.invalid = false;
  walk.hasErrors = !valid;
  return valid ? inputValue : null;
}
