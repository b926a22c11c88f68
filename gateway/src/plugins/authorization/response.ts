// Putting the filtered fields back into the answer: each one as null, with null propagated to
// the nearest nullable parent (as if its resolver had failed), and one error per field.
import { GraphQLError, type GraphQLOutputType, isListType, isNonNullType } from 'graphql';
import { ClientErrorCode } from '../../contract/kit.js';
import type { PatchNode } from './operation.js';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized field or type';

type Path = readonly (string | number)[];

/**
 * `data` with each denied key null, nulls propagated (null when they reached the root; `data`
 * itself is never changed) with one error per denied position's query path (list
 * items as `@`, so a field denied in every item of a list is one error).
 */
export function patchAnswer(
  data: Record<string, unknown>,
  tree: ReadonlyMap<string, PatchNode>,
): { data: Record<string, unknown> | null; errors: GraphQLError[] } {
  const errors = new Map<string, GraphQLError>();
  const report = (path: Path) => {
    // As Apollo Router writes them: a list's items as one `@`, so a field refused in every item is one error.
    const queryPath = path.map((part) => (typeof part === 'number' ? '@' : part));
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
  const patched = patchObject(data, tree, [], report);
  return { data: patched === NULLED ? null : patched, errors: [...errors.values()] };
}

/** A deferred part's entry, patched as an answer is: the tree under its path, errors at full query paths. */
export function patchEntry<
  E extends { data: Record<string, unknown> | null; path: Path; errors?: readonly GraphQLError[] },
>(entry: E, tree: ReadonlyMap<string, PatchNode>): E {
  let under = tree;
  for (const step of entry.path) {
    if (typeof step === 'number') continue;
    const node = under.get(step);
    if (!node) return entry;
    under = node.children;
  }
  if (!entry.data || under.size === 0) return entry;
  const { data, errors } = patchAnswer(entry.data, under);
  if (errors.length === 0) return entry;
  const prefix = entry.path.map((part) => (typeof part === 'number' ? '@' : part));
  const moved = errors.map(
    (error) =>
      new GraphQLError(error.message, { path: [...prefix, ...(error.path ?? [])], extensions: error.extensions }),
  );
  return { ...entry, data, errors: [...moved, ...(entry.errors ?? [])] };
}

/** The value's null (a non-null field in it became null, so it must too), distinct from a null answer. */
const NULLED = Symbol('nulled');

/**
 * `object` with its denied keys null: a copy where anything changed, never the object itself
 * (an answer inbound deduplication shares is patched once per caller, each for its own rights).
 */
function patchObject(
  object: Record<string, unknown>,
  tree: ReadonlyMap<string, PatchNode>,
  path: Path,
  report: (path: Path) => void,
): Record<string, unknown> | typeof NULLED {
  let copy: Record<string, unknown> | undefined;
  for (const [key, node] of tree) {
    if (!(key in object)) continue; // skipped, or in a fragment that did not apply
    const at = [...path, key];
    let next: unknown;
    if (node.denied) {
      report(at);
      next = NULLED;
    } else {
      const value = object[key];
      if (value === null || value === undefined) continue;
      next = patchValue(value, node.type, node.children, at, report);
      if (next === value) continue;
    }
    if (next === NULLED) {
      if (isNonNullType(node.type)) return NULLED;
      next = null;
    }
    copy ??= { ...object };
    copy[key] = next;
  }
  return copy ?? object;
}

function patchValue(
  value: unknown,
  type: GraphQLOutputType,
  tree: ReadonlyMap<string, PatchNode>,
  path: Path,
  report: (path: Path) => void,
): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      if (item === null || item === undefined) continue;
      let next = patchValue(item, inner.ofType, tree, [...path, index], report);
      if (next === item) continue;
      if (next === NULLED) {
        if (isNonNullType(inner.ofType)) return NULLED;
        next = null;
      }
      copy ??= [...value];
      copy[index] = next;
    }
    return copy ?? value;
  }
  if (typeof value !== 'object') return value;
  return patchObject(value as Record<string, unknown>, tree, path, report);
}
