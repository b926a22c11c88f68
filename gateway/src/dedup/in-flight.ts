import { REQUEST_ID_HEADER, TRACE_CONTEXT_HEADERS } from '../header-names.js';

/**
 * Headers that differ on every client request by design (the gateway's request id, the
 * trace context): left out of the key, or no two requests would ever share a fetch.
 * A shared fetch carries the first caller's values of these.
 */
export const PER_REQUEST_HEADERS: ReadonlySet<string> = new Set([REQUEST_ID_HEADER, ...TRACE_CONTEXT_HEADERS]);

/**
 * What makes two subgraph requests the same: the exact body and every other header the
 * plugins set (identity such as `x-user-id`, propagated client headers), so callers with
 * different identities never share an answer. The subgraph is implied: one map per data source.
 */
export function inFlightKey(body: string, headers: Readonly<Record<string, string>>): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!PER_REQUEST_HEADERS.has(lower)) pairs.push(`${lower}:${value}`);
  }
  pairs.sort();
  // JSON keeps a header value containing a newline from imitating another header or the body.
  return JSON.stringify([pairs, body]);
}

/** Identical requests in flight at the same time share one fetch. */
export class InFlight<T> {
  readonly #pending = new Map<string, Promise<T>>();

  /** Joins the fetch in flight under `key`, or starts it with `start`; it is forgotten once settled. */
  run(key: string, start: () => Promise<T>): { result: Promise<T>; joined: boolean } {
    const pending = this.#pending.get(key);
    if (pending) return { result: pending, joined: true };
    const result = start().finally(() => this.#pending.delete(key));
    this.#pending.set(key, result);
    return { result, joined: false };
  }

  /** Fetches in flight now. */
  get size(): number {
    return this.#pending.size;
  }
}
