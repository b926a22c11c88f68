/** Label values that are not a client's operation name. */
export const ANONYMOUS = '__anonymous';
export const OTHER = '__other';
/** The request never got as far as a resolved operation (did not parse or validate). */
export const UNRESOLVED = '__unresolved';

/** A longer name takes a slot's worth of bytes in every scrape: counted as `__other` instead. */
const MAX_NAME_LENGTH = 100;
/** Candidates tracked per label slot: enough that junk sent once cannot crowd out a name in use. */
const CANDIDATES_PER_SLOT = 4;
const MIN_CANDIDATES = 64;

/**
 * Operation names are chosen by clients, so as label values they must be bounded, and no
 * client may take the slots the others' operations need. A name earns its own label value
 * only once the gateway has seen it `minCount` times in requests that resolved (parsed,
 * validated) and were not refused, or at once when the document is a trusted-documents
 * manifest's; until then, and once `max` names hold a value, it is counted as `__other`. A label, once given, is never taken back. Names seen too rarely
 * wait in a bounded candidate table: when it is full, the least-seen (oldest of those)
 * makes room, so a flood of one-off names cannot push out one that keeps coming back.
 * Holds one `T` per label value (the cached series children), so the hot path is a Map
 * lookup, never a new label set.
 */
export class OperationNames<T> {
  readonly #byName = new Map<string, T>();
  readonly #special = new Map<string, T>();
  readonly #candidates = new Map<string, number>();
  readonly #maxCandidates: number;
  #named = 0;

  constructor(
    private readonly max: number,
    private readonly create: (label: string) => T,
    private readonly minCount = 1,
  ) {
    this.#maxCandidates = Math.max(MIN_CANDIDATES, max * CANDIDATES_PER_SLOT);
  }

  /**
   * `name` null or undefined: an unnamed operation; `resolved` false: no operation at all;
   * `counts` false: the request was refused, so it does not bring its name closer to a label;
   * `trusted`: the document is a trusted-documents manifest's, so its name needs no minimum count.
   */
  get(name: string | null | undefined, resolved: boolean, counts = true, trusted = false): T {
    if (!resolved) return this.#specialOf(UNRESOLVED);
    if (!name) return this.#specialOf(ANONYMOUS);
    const known = this.#byName.get(name);
    if (known !== undefined) return known;
    // A client's `__anonymous` must not pass for ours: names starting `__` fold too.
    if (!counts || this.#named >= this.max || name.length > MAX_NAME_LENGTH || name.startsWith('__')) {
      return this.#specialOf(OTHER);
    }
    if (!trusted && !this.#seen(name)) return this.#specialOf(OTHER);
    this.#candidates.delete(name);
    this.#named += 1;
    const created = this.create(name);
    this.#byName.set(name, created);
    return created;
  }

  /** Counts one sighting; true once the name has been seen `minCount` times. */
  #seen(name: string): boolean {
    const count = (this.#candidates.get(name) ?? 0) + 1;
    if (count >= this.minCount) return true;
    if (count === 1 && this.#candidates.size >= this.#maxCandidates) this.#evictLeastSeen();
    this.#candidates.set(name, count);
    return false;
  }

  #evictLeastSeen(): void {
    let victim: string | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    // Map order is insertion order: the first of the least-seen is the oldest of them.
    for (const [name, count] of this.#candidates) {
      if (count < fewest) {
        fewest = count;
        victim = name;
        if (count === 1) break;
      }
    }
    if (victim !== undefined) this.#candidates.delete(victim);
  }

  #specialOf(label: string): T {
    let found = this.#special.get(label);
    if (found === undefined) {
      found = this.create(label);
      this.#special.set(label, found);
    }
    return found;
  }
}
