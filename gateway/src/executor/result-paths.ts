// Walking a plan's paths in the result being built: where a Flatten node's fetch reads and
// writes (executeQueryPlan.js's `moveIntoCursor` and `flattenResultsAtPath`).
type Path = (string | number)[];
type Json = Record<string, unknown>;

/** Where in the result a node runs: its path, the data there, and the whole result. */
export interface Cursor {
  readonly path: Path;
  readonly data: unknown;
  readonly fullResult: Json;
  /** Each entity's path in the result, where a streamed batch's cursor holds only some (stream-window.ts). */
  readonly paths?: readonly Path[];
}

/** The cursor moved to `pathInCursor` within its data (flattened at each list), or none when nothing is there. */
export function moveIntoCursor(cursor: Cursor, pathInCursor: Path): Cursor | undefined {
  const data = flattenResultsAtPath(cursor.data, pathInCursor);
  return data ? { path: cursor.path.concat(pathInCursor), data, fullResult: cursor.fullResult } : undefined;
}

/**
 * executeQueryPlan.js's `flattenResultsAtPath`, walking `path` from `from` rather than copying its
 * rest at every step, and at a list (`@`) pushing into one array where `flatMap` built one per
 * level and a closure (with its context) per call.
 */
function flattenResultsAtPath(value: unknown, path: Path, from = 0): unknown {
  for (; from < path.length; from++) {
    if (value === undefined || value === null) return value;
    const current = path[from];
    if (current === '@') {
      if (!Array.isArray(value)) return flatMapAtPath(value, path, from);
      const flattened: unknown[] = [];
      for (const element of value) pushFlattened(element, path, from + 1, flattened);
      return flattened;
    }
    value = childAt(value, current);
  }
  return value;
}

/** Pushes what `flattenResultsAtPath(value, path, from)` returns, spread one level as `flatMap` spreads it. */
function pushFlattened(value: unknown, path: Path, from: number, into: unknown[]): void {
  for (; from < path.length; from++) {
    if (value === undefined || value === null) break;
    const current = path[from];
    if (current === '@') {
      if (!Array.isArray(value)) {
        pushSpread(flatMapAtPath(value, path, from), into);
        return;
      }
      for (const element of value) pushFlattened(element, path, from + 1, into);
      return;
    }
    value = childAt(value, current);
  }
  pushSpread(value, into);
}

function pushSpread(value: unknown, into: unknown[]): void {
  if (Array.isArray(value)) for (const element of value) into.push(element);
  else into.push(value);
}

/** One step of the walk: the path element's own property (the same assertions as executeQueryPlan.js). */
function childAt(value: unknown, current: string | number | undefined): unknown {
  if (typeof current !== 'string') throw new Error(`Unexpected ${typeof current} found in path`);
  if (Array.isArray(value)) throw new Error(`Unexpected array in result for path element ${current}`);
  const object = value as Json;
  return Object.hasOwn(object, current) ? object[current] : undefined;
}

/** `@` over something that is not an array: what `flatMap` does then (an array-like's, or its TypeError). */
function flatMapAtPath(value: unknown, path: Path, from: number): unknown {
  return (value as unknown[]).flatMap((element) => flattenResultsAtPath(element, path, from + 1));
}
