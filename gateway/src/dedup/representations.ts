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
  const indexes = new UniqueIndexes();
  const unique: unknown[] = [];
  /** For each original position, the index of its representation in `unique`. */
  const uniqueIndexOf: number[] = new Array(representations.length);
  for (let position = 0; position < representations.length; position++) {
    const representation = representations[position];
    let index = indexes.get(representation);
    if (index === undefined) {
      index = unique.length;
      indexes.set(representation, index);
      unique.push(representation);
    }
    uniqueIndexOf[position] = index;
  }
  if (unique.length === representations.length) return undefined;
  return {
    variables: { ...variables, representations: unique },
    expand: (response) => expand(response, uniqueIndexOf, unique.length),
  };
}

/** The usual entity key, `{ __typename, id }` with string values in that order: its JSON is one for each pair. */
type TypenameAndId = { __typename: string; id: string };

/**
 * Representations by their JSON text, without writing it for the usual key: a representation
 * that is exactly `{ "__typename": string, "id": string }` (in that order, own plain fields, no
 * `toJSON`) is one with another exactly when both strings are equal, so those are found by the
 * two strings the subgraph's answer already holds (issue 31: a JSON key per representation, and
 * V8's flattening of it to hash it, were most of what this step allocated). Any other
 * representation is keyed by its JSON text; it can never equal one of the first kind, whose
 * text no other shape has.
 */
class UniqueIndexes {
  #byTypename: Map<string, Map<string, number>> | undefined;
  #byJson: Map<string, number> | undefined;

  get(representation: unknown): number | undefined {
    if (isTypenameAndId(representation))
      return this.#byTypename?.get(representation.__typename)?.get(representation.id);
    return this.#byJson?.get(JSON.stringify(representation));
  }

  set(representation: unknown, index: number): void {
    if (isTypenameAndId(representation)) {
      this.#byTypename ??= new Map();
      let ids = this.#byTypename.get(representation.__typename);
      if (!ids) {
        ids = new Map();
        this.#byTypename.set(representation.__typename, ids);
      }
      ids.set(representation.id, index);
      return;
    }
    this.#byJson ??= new Map();
    this.#byJson.set(JSON.stringify(representation), index);
  }
}

function isTypenameAndId(value: unknown): value is TypenameAndId {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  let count = 0;
  // for…in over a plain object reads V8's enum cache: no key array. JSON.stringify writes the same keys in this order.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    if (count === 0 ? key !== '__typename' : count !== 1 || key !== 'id') return false;
    count++;
  }
  const { __typename, id } = value as Record<string, unknown>;
  return count === 2 && typeof __typename === 'string' && typeof id === 'string';
}

function expand(response: SubgraphResponse, uniqueIndexOf: readonly number[], uniqueCount: number): SubgraphResponse {
  const result: SubgraphResponse = { ...response };
  const entities = (response.data as { _entities?: unknown } | null | undefined)?._entities;
  // A list of another length is passed on as it is: @apollo/gateway reports the mismatch.
  if (Array.isArray(entities) && entities.length === uniqueCount) {
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
    // Only for an answer with errors: the original positions of each distinct representation.
    const positionsOf = positionsOfEach(uniqueIndexOf, uniqueCount);
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

function positionsOfEach(uniqueIndexOf: readonly number[], uniqueCount: number): number[][] {
  const positionsOf: number[][] = new Array(uniqueCount);
  for (let index = 0; index < uniqueCount; index++) positionsOf[index] = [];
  for (let position = 0; position < uniqueIndexOf.length; position++) {
    positionsOf[uniqueIndexOf[position] as number]?.push(position);
  }
  return positionsOf;
}

/** A deep copy of a parsed JSON value (plain objects, arrays, primitives). */
function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = cloneJson(field);
  return copy as T;
}
