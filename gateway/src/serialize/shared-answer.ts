/**
 * Answers served to several callers at once (inbound deduplication): their `data` is
 * serialized once, and every caller's body is built around those bytes. Keyed by object
 * identity, never by content: only callers handed the very same `data` object share bytes,
 * and a caller whose data was replaced (a copy patched for it) is serialized on its own.
 */
const serialized = new WeakMap<object, string | undefined>();

/** Marks `data` as served to several callers; its JSON is written on the first serialization. */
export function markShared(data: unknown): void {
  if (data !== null && typeof data === 'object' && !serialized.has(data)) serialized.set(data, undefined);
}

interface ResultFields {
  readonly errors?: unknown;
  readonly data?: unknown;
  readonly extensions?: unknown;
}

/**
 * Apollo Server's `stringifyResult`: byte for byte its default (`JSON.stringify(result) + '\n'`
 * of `{ errors, data, extensions }`, in that order, undefined members left out), with a shared
 * answer's `data` taken from the first serialization.
 */
export function stringifyResult(result: ResultFields): string {
  const { data } = result;
  if (data === null || typeof data !== 'object' || !serialized.has(data)) return `${JSON.stringify(result)}\n`;
  let json = serialized.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    serialized.set(data, json);
  }
  const errors = result.errors === undefined ? '' : `"errors":${JSON.stringify(result.errors)},`;
  const extensions = result.extensions === undefined ? '' : `,"extensions":${JSON.stringify(result.extensions)}`;
  return `{${errors}"data":${json}${extensions}}\n`;
}
