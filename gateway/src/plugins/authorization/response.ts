// Putting the filtered fields back into the answer: each one as null, with null propagated to
// the nearest nullable parent (as if its resolver had failed), and one error per field.
import { GraphQLError, type GraphQLOutputType, isListType, isNonNullType } from 'graphql';
import { ClientErrorCode } from '../../error-registry.js';
import type { PatchNode } from './operation.js';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized field or type';

type Path = readonly (string | number)[];

/**
 * Sets each denied key of `data` to null, propagating nulls, and returns the data (null when
 * the propagation reached the root) with one error per denied position's query path (list
 * indices left out, so a field denied in every item of a list is one error).
 */
export function patchAnswer(
  data: Record<string, unknown>,
  tree: ReadonlyMap<string, PatchNode>,
): { data: Record<string, unknown> | null; errors: GraphQLError[] } {
  const errors = new Map<string, GraphQLError>();
  const report = (path: Path) => {
    const queryPath = path.filter((part) => typeof part === 'string');
    const id = queryPath.join('.');
    if (!errors.has(id)) {
      errors.set(
        id,
        new GraphQLError(UNAUTHORIZED_MESSAGE, {
          path: queryPath,
          extensions: { code: ClientErrorCode.UNAUTHORIZED_FIELD_OR_TYPE },
        }),
      );
    }
  };
  const nulled = patchObject(data, tree, [], report);
  return { data: nulled ? null : data, errors: [...errors.values()] };
}

/** Returns true when `object` itself must become null (a non-null field in it was nulled). */
function patchObject(
  object: Record<string, unknown>,
  tree: ReadonlyMap<string, PatchNode>,
  path: Path,
  report: (path: Path) => void,
): boolean {
  for (const [key, node] of tree) {
    if (!(key in object)) continue; // skipped, or in a fragment that did not apply
    const at = [...path, key];
    if (node.denied) {
      object[key] = null;
      report(at);
      if (isNonNullType(node.type)) return true;
      continue;
    }
    const value = object[key];
    if (value === null || value === undefined) continue;
    if (patchValue(value, node.type, node.children, at, report)) {
      object[key] = null;
      if (isNonNullType(node.type)) return true;
    }
  }
  return false;
}

function patchValue(
  value: unknown,
  type: GraphQLOutputType,
  tree: ReadonlyMap<string, PatchNode>,
  path: Path,
  report: (path: Path) => void,
): boolean {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return false;
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      if (item === null || item === undefined) continue;
      if (patchValue(item, inner.ofType, tree, [...path, index], report)) {
        value[index] = null;
        if (isNonNullType(inner.ofType)) return true;
      }
    }
    return false;
  }
  if (typeof value !== 'object') return false;
  return patchObject(value as Record<string, unknown>, tree, path, report);
}
