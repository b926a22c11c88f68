/**
 * Counts the requests a subgraph receives by the value of one request header, so that a
 * test or the benchmark can prove a header set by the gateway (a header rule) really
 * arrives: served at GET /header-counts when SUBGRAPH_COUNT_HEADER names a header.
 */
export class HeaderCounter {
  readonly header: string;
  readonly #counts = new Map<string, number>();
  #missing = 0;

  constructor(header: string) {
    this.header = header.toLowerCase();
  }

  count(headers: Readonly<Record<string, string | string[] | undefined>>): void {
    const value = headers[this.header];
    if (value === undefined) {
      this.#missing++;
      return;
    }
    const key = Array.isArray(value) ? value.join(', ') : value;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  /** `{ header, counts: { <value>: <requests> }, missing: <requests without it> }`: GET /header-counts. */
  toJSON(): HeaderCounts {
    return { header: this.header, counts: Object.fromEntries(this.#counts), missing: this.#missing };
  }
}

export interface HeaderCounts {
  readonly header: string;
  readonly counts: Readonly<Record<string, number>>;
  readonly missing: number;
}
