import type { EnumType, ScalarType, Schema } from '@apollo/federation-internals';

/** Whether a subgraph's value is valid for a scalar or enum field. */
export type LeafCheck = (value: unknown) => boolean;

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const BUILT_IN_SCALARS = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

/**
 * federation-internals' `isValidLeafValue(schema, value, type)` with the type's questions
 * (custom scalar? which built-in? enum values) answered once per field instead of per value.
 */
export function leafCheck(schema: Schema, type: ScalarType | EnumType): LeafCheck {
  if (type.kind === 'ScalarType' && !BUILT_IN_SCALARS.has(type.name)) return () => true;
  const isBoolean = type === schema.booleanType();
  const isInt = type === schema.intType();
  const isId = type === schema.idType();
  const isFloat = type === schema.floatType();
  const enumType = type.kind === 'EnumType' ? type : undefined;
  return (value) => {
    if (typeof value === 'boolean') return isBoolean;
    if (typeof value === 'number' && Number.isFinite(value)) {
      if (isInt || isId) return INTEGER.test(String(value));
      return isFloat;
    }
    if (typeof value === 'string') {
      if (enumType) return enumType.value(value) !== undefined;
      return !isBoolean && !isInt && !isFloat;
    }
    return false;
  };
}
