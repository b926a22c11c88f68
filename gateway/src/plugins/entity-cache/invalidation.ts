import { entityDigest } from './keys.js';
import type { InvalidationTarget } from './store.js';

/** The most invalidations one answer may carry: a longer list is ignored whole (a bug or an attack). */
const MAX_PER_ANSWER = 100;
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * The `invalidation` list of a subgraph answer's `extensions`, as Apollo Router reads it:
 * `{ kind: 'subgraph', subgraph }`, `{ kind: 'type', subgraph, type }`,
 * `{ kind: 'entity', subgraph, type, key: { <@key fields> } }`. A subgraph may invalidate only its
 * own entries; malformed items are skipped.
 */
export function invalidationsIn(extensions: unknown, subgraph: string): InvalidationTarget[] {
  const list = (extensions as { invalidation?: unknown } | undefined)?.invalidation;
  if (!Array.isArray(list) || list.length > MAX_PER_ANSWER) return [];
  return list.flatMap((item): InvalidationTarget[] => {
    const target = invalidationTarget(item);
    return target && target.subgraph === subgraph ? [target] : [];
  });
}

/** One invalidation request (from an answer's extension or the admin endpoint), checked; undefined when malformed. */
export function invalidationTarget(item: unknown): InvalidationTarget | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { kind, subgraph, type, key } = item as Record<string, unknown>;
  if (typeof subgraph !== 'string' || subgraph.length === 0 || subgraph.length > 200) return undefined;
  if (kind === 'subgraph') return { subgraph };
  if (typeof type !== 'string' || !NAME.test(type)) return undefined;
  if (kind === 'type') return { subgraph, type };
  if (kind !== 'entity' || typeof key !== 'object' || key === null || Array.isArray(key)) return undefined;
  return { subgraph, type, entity: entityDigest(key as Record<string, unknown>) };
}
