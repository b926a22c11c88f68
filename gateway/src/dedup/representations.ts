import type { GraphQLDataSource } from '@apollo/gateway';

type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

/** The `_entities` fetch @apollo/gateway writes: `query …($representations:[_Any!]!){_entities(representations:$representations)…`. */
const ENTITIES_FETCH = /\{\s*_entities\s*\(\s*representations\s*:\s*\$representations\s*\)/;

/** An `_entities` fetch with its repeated representations sent once, and the way back to every original position. */
export interface EntitiesDedup {
  /** The fetch's variables with each distinct representation once. */
  readonly variables: Record<string, unknown>;
  /** Spreads the subgraph's answer for the distinct representations back over the original positions. */
  expand(response: SubgraphResponse): SubgraphResponse;
}

/**
 * @apollo/gateway sends one representation per entity occurrence: 50 reviews by 10
 * authors ask for 50 authors. Returns undefined when nothing repeats (or this is not an
 * `_entities` fetch), so such fetches go out untouched.
 *
 * Two representations are one when their JSON text is equal: that text is exactly what
 * the subgraph would receive, so it answers both alike. Key order is fixed per fetch (the
 * gateway builds each representation by walking the fetch's `requires` selection), and a
 * differing order could only leave a duplicate unmerged, never merge two different ones.
 */
export function dedupeRepresentations(
  query: string | undefined,
  variables: Record<string, unknown> | undefined,
): EntitiesDedup | undefined {
  const representations = variables?.representations;
  if (!Array.isArray(representations) || representations.length < 2 || !query || !ENTITIES_FETCH.test(query)) {
    return undefined;
  }
  const indexOf = new Map<string, number>();
  const unique: unknown[] = [];
  /** For each original position, the index of its representation in `unique`. */
  const uniqueIndexOf: number[] = new Array(representations.length);
  for (let position = 0; position < representations.length; position++) {
    const key = JSON.stringify(representations[position]);
    let index = indexOf.get(key);
    if (index === undefined) {
      index = unique.length;
      indexOf.set(key, index);
      unique.push(representations[position]);
    }
    uniqueIndexOf[position] = index;
  }
  if (unique.length === representations.length) return undefined;
  const positionsOf: number[][] = unique.map(() => []);
  for (let position = 0; position < uniqueIndexOf.length; position++) {
    positionsOf[uniqueIndexOf[position] as number]?.push(position);
  }
  return {
    variables: { ...variables, representations: unique },
    expand: (response) => expand(response, uniqueIndexOf, positionsOf),
  };
}

function expand(
  response: SubgraphResponse,
  uniqueIndexOf: readonly number[],
  positionsOf: readonly (readonly number[])[],
): SubgraphResponse {
  const result: SubgraphResponse = { ...response };
  const entities = (response.data as { _entities?: unknown } | null | undefined)?._entities;
  // A list of another length is passed on as it is: @apollo/gateway reports the mismatch.
  if (Array.isArray(entities) && entities.length === positionsOf.length) {
    const used = new Array<boolean>(entities.length).fill(false);
    const expanded = uniqueIndexOf.map((index) => {
      const entity = entities[index];
      if (!used[index]) {
        used[index] = true;
        return entity;
      }
      // A copy for every further position: @apollo/gateway merges later fetches into entity
      // objects in place (and assigns their nested objects by reference), so positions
      // sharing one object could not be told apart by anything that follows.
      return cloneJson(entity);
    });
    result.data = { ...response.data, _entities: expanded };
  }
  if (response.errors) {
    // One error per original position, as the subgraph would have answered without dedup.
    result.errors = response.errors.flatMap((error) => {
      const path = error.path;
      const index = path?.[0] === '_entities' ? path[1] : undefined;
      const positions = typeof index === 'number' ? positionsOf[index] : undefined;
      if (!path || !positions) return [error];
      return positions.map((position) => ({ ...error, path: ['_entities', position, ...path.slice(2)] }));
    });
  }
  return result;
}

/** A deep copy of a parsed JSON value (plain objects, arrays, primitives). */
function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = cloneJson(field);
  return copy as T;
}
