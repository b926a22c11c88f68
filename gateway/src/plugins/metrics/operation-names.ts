/** Label values that are not a client's operation name. */
export const ANONYMOUS = '__anonymous';
export const OTHER = '__other';
/** The request never got as far as a resolved operation (did not parse or validate). */
export const UNRESOLVED = '__unresolved';

/** A longer name takes a slot's worth of bytes in every scrape: counted as `__other` instead. */
const MAX_NAME_LENGTH = 100;

/**
 * Operation names are chosen by clients, so as label values they must be bounded: the
 * first `max` distinct names keep their own value, every later one folds into `__other`.
 * Holds one `T` per label value (the cached series children), so the hot path is a Map
 * lookup, never a new label set.
 */
export class OperationNames<T> {
  readonly #byName = new Map<string, T>();
  readonly #special = new Map<string, T>();
  #named = 0;

  constructor(
    private readonly max: number,
    private readonly create: (label: string) => T,
  ) {}

  /** `name` null or undefined: an unnamed operation; `resolved` false: no operation at all. */
  get(name: string | null | undefined, resolved: boolean): T {
    if (!resolved) return this.#specialOf(UNRESOLVED);
    if (!name) return this.#specialOf(ANONYMOUS);
    const known = this.#byName.get(name);
    if (known !== undefined) return known;
    // A client's `__anonymous` must not pass for ours: names starting `__` fold too.
    if (this.#named >= this.max || name.length > MAX_NAME_LENGTH || name.startsWith('__')) {
      return this.#specialOf(OTHER);
    }
    this.#named += 1;
    const created = this.create(name);
    this.#byName.set(name, created);
    return created;
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
