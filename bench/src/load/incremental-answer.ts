/**
 * Reading an incremental (@defer) answer: `multipart/mixed; deferSpec=20220824`, the framing
 * Apollo Router and our gateway write (each names its own boundary: `graphql`, `-`).
 */

/** The boundary named by a multipart content type; null when the type is not multipart. */
export function multipartBoundary(contentType: string | string[] | undefined): string | null {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  if (!value || !/^\s*multipart\/mixed/i.test(value)) return null;
  const match = /boundary="?([^";,]+)"?/i.exec(value);
  return match?.[1] ?? null;
}

/**
 * Whether `text`, the body received so far, holds the whole first part: its JSON has started
 * and the next delimiter has arrived. A search, not a parse: it runs on every chunk of the load.
 */
export function holdsFirstPart(text: string, boundary: string): boolean {
  const delimiter = `--${boundary}`;
  const opened = text.indexOf(delimiter);
  if (opened < 0) return false;
  const body = text.indexOf('\r\n\r\n', opened + delimiter.length);
  return body >= 0 && text.indexOf(delimiter, body) >= 0;
}

/** The JSON payloads of a whole multipart body, in order (the closing delimiter and preamble skipped). */
export function multipartPayloads(text: string, boundary: string): unknown[] {
  const payloads: unknown[] = [];
  for (const segment of text.split(`--${boundary}`)) {
    const headersEnd = segment.indexOf('\r\n\r\n');
    if (headersEnd < 0) continue;
    const json = segment.slice(headersEnd + 4).trim();
    if (json !== '') payloads.push(JSON.parse(json));
  }
  return payloads;
}

interface Payload {
  readonly data?: unknown;
  readonly errors?: unknown[];
  readonly incremental?: readonly {
    readonly data?: unknown;
    readonly path?: readonly (string | number)[];
    readonly errors?: unknown[];
  }[];
  readonly hasNext?: boolean;
}

/**
 * The answer the parts add up to, as a client merges them: the initial `data`, each
 * incremental `data` merged at its `path`; every part's errors gathered; `complete` when the
 * last part said `hasNext: false`.
 */
export function mergeIncremental(payloads: readonly unknown[]): {
  data: unknown;
  errors: unknown[];
  complete: boolean;
} {
  let data: unknown = null;
  const errors: unknown[] = [];
  let complete = false;
  payloads.forEach((raw, index) => {
    const payload = raw as Payload;
    if (index === 0) data = payload.data ?? null;
    errors.push(...(payload.errors ?? []));
    for (const part of payload.incremental ?? []) {
      errors.push(...(part.errors ?? []));
      if (part.data !== undefined) mergeAt(data, part.path ?? [], part.data);
    }
    if (payload.hasNext === false) complete = true;
  });
  return { data, errors, complete };
}

function mergeAt(root: unknown, path: readonly (string | number)[], patch: unknown): void {
  let node = root as Record<string | number, unknown> | null;
  for (const key of path) node = (node?.[key] ?? null) as Record<string | number, unknown> | null;
  if (node && typeof node === 'object') deepMerge(node, patch as Record<string, unknown>);
}

/** Objects merge key by key and lists item by item (a deferred block inside a list patches each item). */
function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    const existing = target[key];
    const bothLists = Array.isArray(existing) && Array.isArray(value);
    const bothObjects = isObject(existing) && isObject(value);
    if (bothLists || bothObjects) deepMerge(existing as Record<string, unknown>, value as Record<string, unknown>);
    else target[key] = value;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
