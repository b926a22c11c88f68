/**
 * Answers served to several callers at once (inbound deduplication): their `data` is
 * serialized once, and every caller's body is built around those bytes. Keyed by object
 * identity, never by content: only callers handed the very same `data` object share bytes,
 * and a caller whose data was replaced (a copy patched for it, a RESPONSE_TOO_LARGE answer)
 * is serialized on its own. So a shared `data` must never be edited in place: plugins
 * replace it (authorization's patch is copy-on-write).
 *
 * One map for the process, not one per gateway: an entry describes one object, not a
 * request, so it cannot reach a caller that was not handed that object, and it goes with it.
 */
const serialized = new WeakMap<object, string | undefined>();

/** Marks `data` as served to several callers; its JSON is written on the first serialization. */
export function markShared(data: unknown): void {
  if (data !== null && typeof data === 'object' && !serialized.has(data)) serialized.set(data, undefined);
}

/**
 * Apollo Server's `stringifyResult`, byte for byte its default (`prettyJSONStringify`:
 * `JSON.stringify(result) + '\n'`, no indentation; Apollo passes `{ errors, data, extensions }`
 * in that order): the result's members in its own order, those JSON.stringify leaves out
 * (undefined) left out, and a shared answer's `data` written from its first serialization.
 * An unshared result costs one WeakMap lookup more than the default.
 */
export function stringifyResult(result: object): string {
  const { data } = result as { data?: unknown };
  if (data === null || typeof data !== 'object' || !serialized.has(data)) return `${JSON.stringify(result)}\n`;
  const members: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    const json = value === data ? sharedJson(data) : JSON.stringify(value);
    if (json !== undefined) members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(',')}}\n`;
}

function sharedJson(data: object): string {
  let json = serialized.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    serialized.set(data, json);
  }
  return json;
}
