// Putting the filtered fields back into the answer: each one as null, with null propagated to
// the nearest nullable parent (as if its resolver had failed); a refused fragment's placeholder
// removed. The errors are the refused selections' paths in the operation, as Apollo Router
// reports them: one per refused selection, whatever the data (under a null parent, in an empty
// list, skipped), each list as one `@`.
import { GraphQLError, type GraphQLOutputType, isListType, isNonNullType } from 'graphql';
import { ClientErrorCode } from '../../plugin-sdk/index.js';
import type { AnswerPatch, PatchNode } from './operation.js';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized field or type';

type Path = readonly (string | number)[];

/** One error per refused selection (fresh objects: an answer's errors are its own). */
export function refusalErrors(patch: AnswerPatch): GraphQLError[] {
  return patch.paths.map(
    (path) =>
      new GraphQLError(UNAUTHORIZED_MESSAGE, {
        path,
        extensions: { code: ClientErrorCode.UNAUTHORIZED_FIELD_OR_TYPE },
      }),
  );
}

/**
 * `data` with each denied key null, nulls propagated (null when they reached the root, or when
 * nothing the operation selects is left; `data` itself is never changed), and the errors.
 */
export function patchAnswer(
  data: Record<string, unknown>,
  patch: AnswerPatch,
): { data: Record<string, unknown> | null; errors: GraphQLError[] } {
  const errors = refusalErrors(patch);
  if (patch.nothingLeft) return { data: null, errors };
  const patched = patchObject(data, patch.tree);
  return { data: patched === NULLED ? null : patched, errors };
}

/**
 * A deferred part's entry, its data patched as an answer's is (the tree under its path). The
 * refusals are reported with the initial answer (every path is known from the operation); a
 * part its refusals made null carries the ones under its path again, so a null part always
 * comes with its reason.
 */
export function patchEntry<
  E extends { data: Record<string, unknown> | null; path: Path; errors?: readonly GraphQLError[] },
>(entry: E, patch: AnswerPatch): E {
  let under = patch.tree;
  for (const step of entry.path) {
    if (typeof step === 'number') continue;
    const node = under.get(step);
    if (!node) return entry;
    under = node.children;
  }
  if (!entry.data || under.size === 0) return entry;
  const data = patchObject(entry.data, under);
  if (data === entry.data) return entry;
  if (data !== NULLED) return { ...entry, data };
  const at = entry.path.map((step) => (typeof step === 'number' ? '@' : step));
  const errors = refusalErrors(patch).filter((error) => startsWith(error.path ?? [], at));
  return { ...entry, data: null, errors: [...errors, ...(entry.errors ?? [])] };
}

/** Whether a query path (fragments left out) begins with `prefix`. */
function startsWith(path: readonly (string | number)[], prefix: readonly string[]): boolean {
  const keys = path.filter((step) => typeof step !== 'string' || !step.startsWith('... on '));
  return prefix.every((step, index) => keys[index] === step);
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
): Record<string, unknown> | typeof NULLED {
  let copy: Record<string, unknown> | undefined;
  for (const [key, node] of tree) {
    if (!(key in object)) continue; // skipped, or in a fragment that did not apply
    if (node.placeholder) {
      copy ??= { ...object };
      delete copy[key];
      continue;
    }
    let next: unknown;
    if (node.denied || !node.left) {
      next = NULLED;
    } else {
      const value = object[key];
      if (value === null || value === undefined) continue;
      next = patchValue(value, node.type, node.children);
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

function patchValue(value: unknown, type: GraphQLOutputType, tree: ReadonlyMap<string, PatchNode>): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      if (item === null || item === undefined) continue;
      let next = patchValue(item, inner.ofType, tree);
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
  return patchObject(value as Record<string, unknown>, tree);
}
